package main

import (
	"runtime"
	"sync"
	"time"

	"github.com/simdkit/elem/internal/bufplace"
)

// copyRefs is the reference the table and the plot compare each workload
// with: copy() moving the same bytes (half read from a source, half written
// to a destination, placed as the workloads' a and b are) on as many
// goroutines as the workload's call uses, timed as the workloads are. A
// workload is compared with the copy of its own size because a cache-resident
// op against a memory-sized copy says nothing about either. Each size is
// measured once per run, the first time it is asked for.
type copyRefs struct {
	workers int                                 // cfg.workers: how the workloads' calls are split
	measure func(bytes int64, parts int) timing // times one copy; a field so tests can count the calls
	cache   map[copyKey]timing
}

type copyKey struct {
	bytes int64
	parts int
}

func newCopyRefs(workers int, minTime time.Duration, reps int) *copyRefs {
	return &copyRefs{workers: workers, cache: map[copyKey]timing{},
		measure: func(bytes int64, parts int) timing { return measureCopy(bytes, parts, minTime, reps) }}
}

// at is the timing of the copy that moves bytes, split as a call with elems
// output elements is.
func (c *copyRefs) at(bytes int64, elems int) timing {
	k := copyKey{bytes, copyParts(c.workers, elems)}
	t, ok := c.cache[k]
	if !ok {
		t = c.measure(k.bytes, k.parts)
		c.cache[k] = t
	}
	return t
}

// parallelGrain is the fewest output elements elem's Parallel calls give a
// goroutine; copyParts splits the copy as they split the work.
const parallelGrain = 1 << 15

// copyParts is how many goroutines the calls with elems output elements use
// under -workers: one for the single-threaded calls and for short ones,
// otherwise up to workers (GOMAXPROCS for -1), each with at least
// parallelGrain elements.
func copyParts(workers, elems int) int {
	if workers == 0 || elems < 2*parallelGrain {
		return 1
	}
	if workers < 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	return min(workers, elems/parallelGrain)
}

// measureCopy times copy() of bytes/2 bytes split among parts goroutines.
func measureCopy(bytes int64, parts int, minTime time.Duration, reps int) timing {
	size := int(bytes / 2)
	bufs := bufplace.Sized[byte]([3]int{size, size, 0})
	src, dst := bufs[0], bufs[1]
	for i := range src {
		src[i] = byte(i)
	}
	copyAll := func() { copy(dst, src) }
	if parts > 1 { // a closure that starts goroutines allocates on every call
		copyAll = func() {
			var wg sync.WaitGroup
			for p := 1; p < parts; p++ {
				wg.Go(func() { copy(dst[p*size/parts:(p+1)*size/parts], src[p*size/parts:]) })
			}
			copy(dst[:size/parts], src)
			wg.Wait()
		}
	}
	copyAll()    // fault dst's pages in
	runtime.GC() // rather than during the timings
	return measure(copyAll, minTime, reps)
}
