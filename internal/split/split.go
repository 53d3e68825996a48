// Package split divides one computation among goroutines: how many to use,
// and where each one's part begins and ends. It is the one splitter of
// elem's Parallel calls and of broadcast.RunParallel.
package split

import (
	"runtime"
	"sync"
)

// Count returns how many parts to divide total units of work into, a unit
// being size elements: at most workers (runtime.GOMAXPROCS(0) when workers <=
// 0) and total, at least 1, and few enough that every part gets at least grain
// elements. Work smaller than two grains gives 1 without asking for
// GOMAXPROCS, and nonsense sizes (total or size <= 0) give 1.
func Count(workers, total, size, grain int) int {
	if total <= 0 || size <= 0 {
		return 1
	}
	each := (grain-1)/size + 1 // units in a part, at least
	if total < 2*each {
		return 1
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	return max(1, min(workers, total/each))
}

// Parts is [0, total) divided into balanced parts whose inner boundaries fall
// on the grid head + k*align: the first part also takes the head units before
// the grid starts, and the last one ends at total. Parts balance whole grid
// cells, so their sizes differ by at most one cell (plus the head).
type Parts struct {
	n, total, head, align int
	q, rem                int // cells per part, and how many parts take one more
}

// Even divides [0, total) into n parts on the grid head + k*align (align >=
// 1, 0 <= head < align). Fewer cells than n give fewer, non-empty parts.
func Even(n, total, head, align int) Parts {
	head = min(head, total)
	cells := (total - head + align - 1) / align
	n = max(1, min(n, cells))
	return Parts{n: n, total: total, head: head, align: align, q: cells / n, rem: cells % n}
}

// Len is the number of parts.
func (s Parts) Len() int { return s.n }

// Bounds returns part i as [lo, hi).
func (s Parts) Bounds(i int) (lo, hi int) {
	cell := func(i int) int { return i*s.q + min(i, s.rem) }
	lo, hi = s.head+cell(i)*s.align, min(s.total, s.head+cell(i+1)*s.align)
	if i == 0 {
		lo = 0
	}
	return lo, hi
}

// Run calls f once per part, parts 1 and up on goroutines of their own and
// part 0 on the caller's, and returns when all have.
func (s Parts) Run(f func(lo, hi int)) {
	var wg sync.WaitGroup
	for i := 1; i < s.n; i++ {
		wg.Go(func() { f(s.Bounds(i)) })
	}
	f(s.Bounds(0))
	wg.Wait()
}
