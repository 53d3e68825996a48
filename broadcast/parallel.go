package broadcast

import (
	"github.com/simdkit/elem"
	"github.com/simdkit/elem/internal/kernel"
	"github.com/simdkit/elem/internal/split"
)

// parallelGrain is the least number of output elements worth a goroutine:
// below it, starting one costs more than its share of the work saves.
var parallelGrain = 1 << 15

// columnAlign keeps column splits on whole 64-byte lines of float32 (and
// vectors of every width), so that no two goroutines write one cache line.
const columnAlign = 16

// RunParallel is Run on up to workers goroutines (GOMAXPROCS when workers
// <= 0). It splits the output on whole rows of the plan's block, or on
// aligned column blocks when there are fewer rows than workers, each part at
// least parallelGrain elements, so small calls run on the calling goroutine
// alone; no goroutine is started unless the work is large enough. Every part
// stores as the whole plan would (see the package documentation on
// streaming). The result is bit for bit that of Run, errors included, and
// nothing is written on error.
func RunParallel[T elem.Number](p *Plan, workers int, op elem.Op, dst, a, b []T) error {
	if err := checkRun(p, true, op, dst, a, b); err != nil {
		return err
	}
	runParallel(newExec(p, kernel.Op(op), dst, a, b), workers)
	return nil
}

// RunInPlaceParallel is RunInPlace on up to workers goroutines, as
// RunParallel is Run.
func RunInPlaceParallel[T elem.Number](p *Plan, workers int, op elem.Op, a, b []T) error {
	return RunParallel(p, workers, op, a, a, b)
}

// CopyParallel is Copy on up to workers goroutines, as RunParallel is Run.
func CopyParallel[T elem.Number](p *Plan, workers int, dst, in []T) error {
	if err := checkRun(p, false, 0, dst, in, nil); err != nil {
		return err
	}
	runParallel(newExec(p, 0, dst, in, nil), workers)
	return nil
}

// runParallel runs e on the parts internal/split gives: whole rows when
// there are enough of them, else column blocks (which a tiled plan, whose
// block is one flat run, cannot take).
func runParallel[T kernel.Number](e exec[T], workers int) {
	parts := split.Count(workers, e.p.length[0], 1, parallelGrain)
	rows := e.p.block.rows
	switch {
	case parts <= 1 || e.strategy == runEmpty:
		e.run()
	case rows >= parts:
		split.Even(parts, rows, 0, 1).Run(func(lo, hi int) {
			e.walk(lo, hi)
			kernel.FenceAfter(e.stream)
		})
	case e.strategy != runTile:
		split.Even(parts, e.p.block.n, 0, columnAlign).Run(func(lo, hi int) {
			part := e
			part.c0, part.c1 = lo, hi
			part.walk(0, rows)
			kernel.FenceAfter(e.stream)
		})
	default:
		e.run()
	}
}
