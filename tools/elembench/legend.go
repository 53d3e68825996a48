package main

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/simdkit/elem/broadcast"
)

// kindFormulas spells out the kernel kinds the -kinds flag names.
var kindFormulas = map[string]string{
	"vv":  "dst = a op b",
	"vs":  "dst = a op scalar",
	"sv":  "dst = scalar op a",
	"v":   "dst = op a (the unary ops)",
	"vvv": "dst = op(a, b, c) (fma: a*b + c; clamp: min(max(a, b), c))",
}

// broadcastKinds says what each workload of internal/workloads is; the
// legend takes the shapes from the workloads themselves.
var broadcastKinds = map[string]string{
	"R":        "row broadcast: b is one row, combined with every row of a",
	"R-narrow": "row broadcast with short rows",
	"K":        "column broadcast: b is a column, one value per row of a",
	"K-narrow": "column broadcast with short rows",
	"T3":       "channel broadcast: one gain per channel of a 3-channel image",
	"T3-big":   "channel broadcast over a 3-channel array far larger than L2",
	"O":        "outer product: a column a against a row b fills the whole matrix",
	"G4":       "general: both operands broadcast, in different dimensions (4-D)",
	"G3":       "general: both operands broadcast, b has fewer dimensions (3-D)",
	"S-16K":    "scalar: b has no dimensions, one value for every element of a",
}

// noisyLegend explains the marker of a noisy figure, for the table and the
// plot's printout alike.
func noisyLegend() string {
	return fmt.Sprintf("spread above %.0f%%: noisy (and so is a ratio built on it); rerun, or raise -reps or -time, before trusting the figure",
		100*noisyLimit)
}

// legend explains the table's columns and names, for the implementations,
// kinds and broadcast workloads this run times (kinds is empty when no
// kernel rows are timed).
func legend(cfg config, kinds []string) string {
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	entry := func(name, text string) { fmt.Fprintf(tw, "  %s\t%s\n", name, text) }
	fmt.Fprintln(tw, "legend:")
	entry("ns/elem", fmt.Sprintf("time per output element: the median of %d timings of about %v each", cfg.reps, cfg.minTime))
	entry("GB/s", "bytes of a, b and dst read and written per ns at the median (a broadcast operand counted once)")
	entry("spread", fmt.Sprintf("(slowest - fastest) / median of those %d timings", cfg.reps))
	entry(noisyMark, noisyLegend())
	if len(comparedImpls(cfg.impls)) > 0 {
		entry("speedup", "generic time / the named implementation's time: below 1x it is slower than the generic kernels (the plain Go loop)")
	}
	entry("copy", "copy() moving the same bytes as the row (half read, half written), placed, split and timed as the row is")
	entry("best/copy", "the fastest implementation's GB/s over the copy's, and which implementation that is")
	for _, k := range kinds {
		entry(k, kindFormulas[k]+" (rows op/type/"+k+"/n=elements)")
	}
	if len(cfg.broadcast) > 0 {
		fmt.Fprintln(tw, "broadcast workloads: float32, NumPy rules, dst = a op b, each followed by the contiguous vv op of its output size:")
	}
	for _, w := range cfg.broadcast {
		out, err := broadcast.Numpy(w.A, w.B)
		if err != nil {
			panic(err) // the workload table is valid
		}
		fmt.Fprintf(tw, "  %s\ta %v %s b %v -> dst %v\t%s\n", w.Name, w.A, w.Op, w.B, out, broadcastKinds[w.Name])
	}
	tw.Flush()
	return b.String()
}
