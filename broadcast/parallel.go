package broadcast

import (
	"runtime"
	"sync"
	"unsafe"

	"github.com/simdkit/elem"
)

// parallelGrain is the least number of output elements worth a goroutine:
// below it, starting one costs more than its share of the work saves.
var parallelGrain = 1 << 15

// columnAlign keeps column splits on whole 64-byte lines of float32 (and
// vectors of every width), so that no two goroutines write one cache line.
const columnAlign = 16

// RunParallel is Run on up to workers goroutines (GOMAXPROCS when workers
// <= 0). It splits the output on whole rows, or on aligned column blocks when
// there are fewer rows than workers, each part at least parallelGrain
// elements, so small calls run on the calling goroutine alone; no goroutine
// is started unless the work is large enough. The result is bit for bit that
// of Run, errors included, and nothing is written on error.
func RunParallel[T elem.Float](p *Plan, workers int, op elem.Op, dst, a, b []T) error {
	if err := checkRun(p, op, dst, a, b); err != nil {
		return err
	}
	if p.empty {
		return nil
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, p.outLen/parallelGrain)
	rows := p.rows()
	e := exec[T]{p: p, op: op, dst: dst, a: a, b: b, c1: p.n}
	switch {
	case workers <= 1:
		e.walk(0, rows)
	case rows >= workers:
		split(workers, rows, 1, func(lo, hi int) { e.walk(lo, hi) })
	case !p.tiled(int(unsafe.Sizeof(T(0)))):
		split(workers, p.n, columnAlign, func(lo, hi int) {
			part := e
			part.c0, part.c1 = lo, hi
			part.walk(0, rows)
		})
	default:
		e.walk(0, rows)
	}
	return nil
}

// split runs f on parts of 0..total, one per worker, with every boundary a
// multiple of align, and waits for them.
func split(workers, total, align int, f func(lo, hi int)) {
	var wg sync.WaitGroup
	step := (total + workers - 1) / workers
	step = (step + align - 1) / align * align
	for lo := 0; lo < total; lo += step {
		hi := min(total, lo+step)
		if hi == total {
			f(lo, hi) // the last part on this goroutine
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(lo, hi)
		}()
	}
	wg.Wait()
}
