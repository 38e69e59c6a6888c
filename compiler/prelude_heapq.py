"""heapq's functions in the gpucc language (compiler/preludes.py appends the ones a unit names):
CPython's pure-Python bodies (Lib/heapq.py, whose order of elements the C module keeps), so the
list is in CPython's order after every operation.  Without the `key=` parameter of nlargest /
nsmallest (a located arity or keyword error); `item, heap[0] = heap[0], item` is written with a
local.  nlargest / nsmallest are CPython's documented equivalents, `sorted(iterable)[:n]` (with
`reverse=True`: written as a sort, a reversal and each run of equal elements put back in its
first order, as the stable sort keeps it): the same elements in the same order as its heap-based
bodies, and [] for n <= 0.
"""

# name -> (source, the prelude functions it calls)
HEAPQ_BODIES = {
    "heappush": ("""
def heappush(heap, item):
    heap.append(item)
    _siftdown(heap, 0, len(heap) - 1)
""", ("_siftdown",)),
    "heappop": ("""
def heappop(heap):
    lastelt = heap.pop()
    if heap:
        returnitem = heap[0]
        heap[0] = lastelt
        _siftup(heap, 0)
        return returnitem
    return lastelt
""", ("_siftup",)),
    "heapreplace": ("""
def heapreplace(heap, item):
    returnitem = heap[0]
    heap[0] = item
    _siftup(heap, 0)
    return returnitem
""", ("_siftup",)),
    "heappushpop": ("""
def heappushpop(heap, item):
    if heap and heap[0] < item:
        top = heap[0]
        heap[0] = item
        _siftup(heap, 0)
        return top
    return item
""", ("_siftup",)),
    "heapify": ("""
def heapify(x):
    i = len(x) // 2 - 1
    while i >= 0:
        _siftup(x, i)
        i -= 1
""", ("_siftup",)),
    "nlargest": ("""
def nlargest(n, iterable):
    result = sorted(iterable)
    result.reverse()
    i = 0
    while i < len(result):
        j = i + 1
        while j < len(result) and not result[j] < result[i]:
            j += 1
        result[i:j] = result[i:j][::-1]
        i = j
    return result[:n] if n > 0 else result[:0]
""", ()),
    "nsmallest": ("""
def nsmallest(n, iterable):
    result = sorted(iterable)
    return result[:n] if n > 0 else result[:0]
""", ()),
    "_siftdown": ("""
def _siftdown(heap, startpos, pos):
    newitem = heap[pos]
    while pos > startpos:
        parentpos = (pos - 1) >> 1
        parent = heap[parentpos]
        if newitem < parent:
            heap[pos] = parent
            pos = parentpos
            continue
        break
    heap[pos] = newitem
""", ()),
    "_siftup": ("""
def _siftup(heap, pos):
    endpos = len(heap)
    startpos = pos
    newitem = heap[pos]
    childpos = 2 * pos + 1
    while childpos < endpos:
        rightpos = childpos + 1
        if rightpos < endpos and not heap[childpos] < heap[rightpos]:
            childpos = rightpos
        heap[pos] = heap[childpos]
        pos = childpos
        childpos = 2 * pos + 1
    heap[pos] = newitem
    _siftdown(heap, startpos, pos)
""", ("_siftdown",)),
}  # fmt: skip
