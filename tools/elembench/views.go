package main

import (
	"fmt"
	"io"
	"runtime"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/internal/workloads"
)

// viewTargets are the goals of the views issue for each workload of
// workloads.Views: a ratio to the baseline, or for the column an absolute
// ns/elem.
var viewTargets = map[string]struct {
	ratio, ns float64
}{
	"a+b.T":        {ratio: 2.0},
	"column":       {ns: 0.6},
	"bias-subview": {ratio: 1.1},
}

// reportViews times the strided-view workloads (float32, the implementation
// in use) beside their contiguous baselines, view and baseline alternating
// timing by timing so that both see the same machine, and ends with the
// line "views: worst view/contiguous = R": the largest ratio of a view's
// ns/elem to its baseline's.
func reportViews(w io.Writer, cfg config) {
	fmt.Fprintf(w, "views (float32, %s): ns per output element, medians of %d timings; the baseline is the contiguous op of the same output size\n",
		elem.Implementation(), cfg.reps)
	fmt.Fprintf(w, "%-14s %10s  %-26s %10s  %6s  %s\n", "workload", "view", "baseline", "baseline", "ratio", "target")
	worst := 0.0
	for _, v := range workloads.Views {
		view, baseline, n := v.New()
		runtime.GC()
		call := func() {
			if err := view(); err != nil {
				panic(err) // the workloads are valid views
			}
		}
		vt, bt := measurePair(call, baseline, cfg)
		vn, bn := vt.median/float64(n), bt.median/float64(n)
		ratio := vn / bn
		worst = max(worst, ratio)
		target := viewTargets[v.Name]
		goal := fmt.Sprintf("ratio <= %.1f", target.ratio)
		if target.ns > 0 {
			goal = fmt.Sprintf("<= %.2f ns/elem", target.ns)
		}
		fmt.Fprintf(w, "%-14s %9.4f%s  %-26s %9.4f%s  %5.2fx  %s\n", v.Name, vn, mark(vt), v.Baseline, bn, mark(bt), ratio, goal)
	}
	fmt.Fprintf(w, "views: worst view/contiguous = %.2f\n", worst)
}

// measurePair times a and b alternately, cfg.reps timings each.
func measurePair(a, b func(), cfg config) (timing, timing) {
	ia, ib := calibrate(a, cfg.minTime), calibrate(b, cfg.minTime)
	ta, tb := make([]float64, cfg.reps), make([]float64, cfg.reps)
	for i := range cfg.reps {
		ta[i] = timeCalls(a, ia)
		tb[i] = timeCalls(b, ib)
	}
	return summarize(ta), summarize(tb)
}

// mark is the noisy mark of t, or a space.
func mark(t timing) string { return marked("", t.noisy()) }
