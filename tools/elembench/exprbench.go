package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/simdkit/elem/internal/workloads"
)

// exprTimes are the three timings of one -expr workload, taken round by
// round so that a neighbour's load falls on all three alike.
type exprTimes struct{ fused, opByOp, add timing }

// timeExpr times in's three ways: each calibrated to about minTime, then
// reps rounds of fused, op by op and Add in turn.
func timeExpr(in *workloads.ExprInstance, cfg config) exprTimes {
	calls := []func(){in.Fused, in.OpByOp, in.Add}
	iters := make([]int, len(calls))
	for i, f := range calls {
		iters[i] = calibrate(f, cfg.minTime)
	}
	times := make([][]float64, len(calls))
	for range cfg.reps {
		for i, f := range calls {
			times[i] = append(times[i], timeCalls(f, iters[i]))
		}
	}
	return exprTimes{summarize(times[0]), summarize(times[1]), summarize(times[2])}
}

// reportExpr prints the fused-expression table of issue 12 and ends with
// the line `expr: worst 16M fused/Add = R`, R being the largest ratio of a
// 16M workload's fused time to one elem.Add of its output size.
func reportExpr(w io.Writer, cfg config) error {
	fmt.Fprintf(w, "fused expressions (package expr), float32, median of %d rounds; a ratio below 1 means fused is faster\n", cfg.reps)
	fmt.Fprintf(w, "op by op: the same elem calls one at a time into preallocated temporaries; Add: one elem.Add of the output's size\n")
	fmt.Fprintf(w, "block: the elements of each temporary; f: the fused kernels' chunk (the whole expression per chunk, one assembly call per block), else a block of kernel calls per op\n\n")
	fmt.Fprintf(w, "%-8s %-16s %7s %12s %12s %12s %10s %10s\n", "workload", "expression", "block", "fused", "op by op", "Add", "fused/op", "fused/Add")
	worst := 0.0
	for _, wl := range workloads.Exprs {
		in, err := workloads.NewExpr(wl)
		if err != nil {
			return err
		}
		t := timeExpr(in, cfg)
		vsOp, vsAdd := t.fused.median/t.opByOp.median, t.fused.median/t.add.median
		noisy := t.fused.noisy() || t.opByOp.noisy() || t.add.noisy()
		block := fmt.Sprint(in.Plan.BlockLen(in.Plan.Streams()))
		if in.Plan.Fused() {
			block += " f"
		}
		fmt.Fprintf(w, "%-8s %-16s %7s %12s %12s %12s %10s %10s\n", wl.Name, wl.Text, block,
			duration(t.fused), duration(t.opByOp), duration(t.add),
			marked(fmt.Sprintf("%.2f", vsOp), noisy), marked(fmt.Sprintf("%.2f", vsAdd), noisy))
		if strings.HasSuffix(wl.Name, "16M") {
			worst = max(worst, vsAdd)
		}
	}
	fmt.Fprintf(w, "\n(%s: a spread of the timings above %.0f%%)\n", noisyMark, 100*noisyLimit)
	fmt.Fprintln(w, worstLine(worst))
	return nil
}

// worstLine is the closing line an independent check reads.
func worstLine(r float64) string { return fmt.Sprintf("expr: worst 16M fused/Add = %.2f", r) }

// duration writes a timing's median in a readable unit.
func duration(t timing) string {
	ns := t.median
	switch {
	case ns >= 1e6:
		return fmt.Sprintf("%.2f ms", ns/1e6)
	case ns >= 1e3:
		return fmt.Sprintf("%.2f µs", ns/1e3)
	}
	return fmt.Sprintf("%.0f ns", ns)
}
