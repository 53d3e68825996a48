package main

import (
	"runtime"
	"sync"
)

// copyBandwidth is the reference the table and the plot compare with: the
// memory-copy bandwidth in GB/s, as copy() of a 64 MiB slice, split among as
// many goroutines as the workloads use, with the bytes read and the bytes
// written both counted; the median of cfg.reps timings.
func copyBandwidth(cfg config) float64 {
	const size = 64 << 20
	src, dst := make([]byte, size), make([]byte, size)
	for i := range src {
		src[i] = byte(i)
	}
	parts := 1
	switch {
	case cfg.workers > 0:
		parts = cfg.workers
	case cfg.workers < 0:
		parts = runtime.GOMAXPROCS(0)
	}
	copyAll := func() {
		var wg sync.WaitGroup
		for p := 1; p < parts; p++ {
			wg.Go(func() { copy(dst[p*size/parts:(p+1)*size/parts], src[p*size/parts:]) })
		}
		copy(dst[:size/parts], src)
		wg.Wait()
	}
	copyAll() // fault dst's pages in
	return 2 * size / measure(copyAll, cfg.minTime, cfg.reps)
}
