package main

import (
	"bytes"
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/internal/bufplace"
)

// curveSpec is the workload that -png and -svg draw against its size, and
// how.
type curveSpec struct {
	op        elem.Op
	typ, kind string
	max       int  // the largest size, in elements
	nsPerElem bool // y is ns per element (-plot-y ns) rather than GB/s
	logY      bool // y on a log scale (-plot-logy)
}

func (c curveSpec) String() string { return fmt.Sprintf("%s/%s/%s", c.op, c.typ, c.kind) }

// parseCurveSpec reads -plot (op/type/kind), -plot-max, -plot-y and
// -plot-logy.
func parseCurveSpec(spec string, maxN int, y string, logY bool) (curveSpec, error) {
	f := strings.Split(spec, "/")
	if len(f) != 3 {
		return curveSpec{}, fmt.Errorf("bad -plot %q: want op/type/kind, such as add/float32/vv", spec)
	}
	o, err := parseOp(f[0])
	op, binary := o.op.(elem.Op)
	if err == nil && !binary {
		err = fmt.Errorf("bad -plot %q: the curve draws a binary op (%s)", spec, strings.Join(opNames(elem.Ops()), ", "))
	}
	if err == nil {
		err = checkType(f[1])
	}
	if err == nil {
		err = checkKind(f[2])
	}
	if err == nil && maxN < 8 {
		err = fmt.Errorf("bad -plot-max %d: the curve starts at 8 elements", maxN)
	}
	if err == nil && y != "gbs" && y != "ns" {
		err = fmt.Errorf("bad -plot-y %q: want gbs or ns", y)
	}
	return curveSpec{op: op, typ: f[1], kind: f[2], max: maxN, nsPerElem: y == "ns", logY: logY}, err
}

// y is what the curve shows for t, the timing of a call on n elements: at
// the median, at the fastest and at the slowest timing.
func (c curveSpec) y(t timing, n int) (median, fastest, slowest float64) {
	if c.nsPerElem {
		return t.median / float64(n), t.min / float64(n), t.max / float64(n)
	}
	b := float64(bytesMoved(c.typ, c.kind, n))
	return b / t.median, b / t.min, b / t.max
}

// unit names what y is.
func (c curveSpec) unit() string {
	if c.nsPerElem {
		return "ns/elem"
	}
	return "GB/s"
}

// axisY is where the y axis puts v: v, or log10(v) on a log scale, which is
// drawn with ticks labelled with the values (see logTicks).
func (c curveSpec) axisY(v float64) float64 {
	if c.logY {
		return math.Log10(v)
	}
	return v
}

// curveSizes are the sizes the curve is measured at: from 8 elements in steps
// of sqrt(2) up to maxN.
func curveSizes(maxN int) []int {
	var ns []int
	for k := 0; ; k++ {
		n := int(math.Round(8 * math.Pow(2, float64(k)/2)))
		if n > maxN {
			return ns
		}
		ns = append(ns, n)
	}
}

// curveTimings are the curve's timings at each size: per implementation,
// and of copy() moving the same bytes.
type curveTimings struct {
	sizes  []int
	impls  map[string][]timing
	copies []timing
}

// plotCurve measures cfg.curve at every size with every implementation and
// the copy of the same bytes, prints the numbers, and draws them, with the
// sizes at which the slices fill each cache, into cfg.png and cfg.svg.
func plotCurve(w io.Writer, cfg config, copies *copyRefs) error {
	sizes := curveSizes(cfg.curve.max)
	fmt.Fprintf(w, "%s, %s by size (the median of %d timings; %s: %s):\n", cfg.curve, cfg.curve.unit(), cfg.reps, noisyMark, noisyLegend())
	ct := elemTypes[cfg.curve.typ].curve(w, cfg, sizes, copies)
	p, err := drawCurve(cfg, ct, dataCaches(elem.CacheSizes()))
	if err != nil {
		return err
	}
	const width, height = 11 * vg.Inch, 6.5 * vg.Inch
	for _, out := range []struct{ file, format string }{{cfg.png, "png"}, {cfg.svg, "svg"}} {
		if out.file == "" {
			continue
		}
		var buf bytes.Buffer
		if out.format == "png" {
			c := vgimg.NewWith(vgimg.UseWH(width, height), vgimg.UseDPI(120))
			p.Draw(draw.New(c))
			_, err = vgimg.PngCanvas{Canvas: c}.WriteTo(&buf)
		} else {
			var wt io.WriterTo
			if wt, err = p.WriterTo(width, height, out.format); err == nil {
				_, err = wt.WriteTo(&buf)
			}
		}
		if err == nil {
			err = os.WriteFile(out.file, buf.Bytes(), 0o644)
		}
		if err != nil {
			return fmt.Errorf("writing %s: %w", out.file, err)
		}
		fmt.Fprintf(w, "wrote %s\n", out.file)
	}
	return nil
}

// measureCurve times cfg.curve at every size (the smaller ones in the first
// elements of the largest's buffers) with every implementation, and the copy
// of the same bytes, printing a row per size.
func measureCurve[T elem.Number](w io.Writer, cfg config, sizes []int, copies *copyRefs) curveTimings {
	bufs := bufplace.Three[T](sizes[len(sizes)-1])
	fill(bufs[0], bufs[1])
	fmt.Fprintf(w, "%10s", "n")
	for _, name := range append(slices.Clone(cfg.impls), "copy") {
		fmt.Fprintf(w, "  %9s", name)
	}
	fmt.Fprintln(w)
	cell := func(t timing, n int) {
		v, _, _ := cfg.curve.y(t, n)
		mark := " "
		if t.noisy() {
			mark = noisyMark
		}
		fmt.Fprintf(w, "  %8.3g%s", v, mark)
	}
	defer elem.SetImplementation(elem.Auto)
	ct := curveTimings{sizes: sizes, impls: map[string][]timing{}}
	for _, n := range sizes {
		run := call(cfg.curve.op, cfg.curve.kind, cfg.workers, bufs[2][:n], bufs[0][:n], bufs[1][:n])
		fmt.Fprintf(w, "%10d", n)
		for _, impl := range cfg.impls {
			if err := elem.SetImplementation(impl); err != nil {
				panic(err) // parseFlags checked availability
			}
			t := measure(run, cfg.minTime, cfg.reps)
			ct.impls[impl] = append(ct.impls[impl], t)
			cell(t, n)
		}
		t := copies.at(bytesMoved(cfg.curve.typ, cfg.curve.kind, n), n)
		ct.copies = append(ct.copies, t)
		cell(t, n)
		fmt.Fprintln(w)
	}
	return ct
}

// series is one curve's points (the medians) and error bars (fastest to
// slowest timing), on the plot's axes.
type series struct {
	plotter.XYs
	plotter.YErrors
}

// newSeries places timings (one per size) on the plot's axes.
func newSeries(c curveSpec, sizes []int, ts []timing) series {
	s := series{make(plotter.XYs, len(sizes)), make(plotter.YErrors, len(sizes))}
	for i, n := range sizes {
		mid, fast, slow := c.y(ts[i], n)
		y, a, b := c.axisY(mid), c.axisY(fast), c.axisY(slow)
		s.XYs[i] = plotter.XY{X: math.Log2(float64(n)), Y: y}
		s.YErrors[i].Low, s.YErrors[i].High = y-min(a, b), max(a, b)-y
	}
	return s
}

// yRange is the lowest and highest y the series reach, error bars included.
func (s series) yRange() (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for i, xy := range s.XYs {
		lo, hi = min(lo, xy.Y-s.YErrors[i].Low), max(hi, xy.Y+s.YErrors[i].High)
	}
	return lo, hi
}

// drawCurve plots the curve against size, one line per implementation and a
// dashed one for the copy of the same bytes, each point the median with an
// error bar from the fastest to the slowest timing, and a dotted line where
// the slices together fill each of caches (the axis reaches the last level
// even where the sizes stop short of it).
func drawCurve(cfg config, ct curveTimings, caches []cache) (*plot.Plot, error) {
	c := cfg.curve
	p := plot.New()
	p.Title.Text = fmt.Sprintf("elem %s (%s) %s by size, %s\n%s, %s/%s, %d CPUs, %s",
		c, formula(c), c.unit(), goroutines(cfg.workers), cpuModel(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version())
	p.Title.Padding = vg.Points(8)
	p.Title.TextStyle.Font.Size = vg.Points(14)
	p.X.Label.TextStyle.Font.Size, p.Y.Label.TextStyle.Font.Size = vg.Points(12), vg.Points(12)
	p.X.Tick.Label.Font.Size, p.Y.Tick.Label.Font.Size = vg.Points(11), vg.Points(11)
	p.Legend.TextStyle.Font.Size = vg.Points(12)
	p.X.Label.Text = "n, elements per slice (log scale, K = 1024); dotted: where the slices together fill a cache"
	p.Y.Label.Text = "GB/s (bytes of the slices read and written per ns)"
	if c.nsPerElem {
		p.Y.Label.Text = "ns per element"
	}
	if c.logY {
		p.Y.Label.Text += ", log scale"
		p.Y.Tick.Marker = plot.TickerFunc(logTicks)
	}
	p.Y.Label.Text += fmt.Sprintf("; bars: fastest to slowest of %d timings", cfg.reps)
	// x is log2(n), labelled with n: plot.LogScale would do, but gonum then
	// centres the axis label's glyph box at the linear midpoint and shrinks
	// the plot to make room for it. y on a log scale is log10 for the same
	// reason.
	p.X.Tick.Marker = plot.TickerFunc(sizeTicks)
	// The legend goes where the curves seldom are: top left for GB/s, where
	// small sizes are slow; for ns/elem, where they are the slowest, top
	// right, or bottom right on a log scale, where large sizes sit high. At
	// the top it stays below the cache labels.
	p.Legend.Top, p.Legend.Left = !(c.nsPerElem && c.logY), !c.nsPerElem
	p.Legend.XOffs, p.Legend.YOffs = vg.Points(12), vg.Points(12)
	if c.nsPerElem {
		p.Legend.XOffs = -p.Legend.XOffs
	}
	if p.Legend.Top {
		p.Legend.YOffs = -vg.Points(8 + cacheLabelStep*float64(len(caches)))
	}
	p.Add(plotter.NewGrid())

	all := append(slices.Clone(cfg.impls), "copy")
	ylo, yhi := math.Inf(1), math.Inf(-1)
	for i, name := range all {
		ts := ct.impls[name]
		if name == "copy" {
			ts = ct.copies
		}
		s := newSeries(c, ct.sizes, ts)
		line, points, err := plotter.NewLinePoints(s)
		if err != nil {
			return nil, err
		}
		bars, err := plotter.NewYErrorBars(s)
		if err != nil {
			return nil, err
		}
		col, label := plotutil.Color(i), name
		if name == "copy" {
			col, label = color.Gray{Y: 90}, "copy() of the same bytes"
			line.Dashes = []vg.Length{vg.Points(6), vg.Points(3)}
		}
		line.Color, line.Width = col, vg.Points(1.5)
		points.Color, points.Shape = col, plotutil.Shape(i)
		bars.Color, bars.CapWidth = col, vg.Points(4)
		p.Add(line, points, bars)
		p.Legend.Add(label, line, points)
		lo, hi := s.yRange()
		ylo, yhi = min(ylo, lo), max(yhi, hi)
	}
	if c.logY {
		pad := max(0.1, yhi-ylo) * 0.08
		ylo, yhi = ylo-pad, yhi+2*pad
	} else {
		ylo, yhi = 0, yhi*1.12
	}
	p.Y.Min, p.Y.Max = ylo, yhi

	lo, hi := math.Log2(float64(ct.sizes[0])), math.Log2(float64(ct.sizes[len(ct.sizes)-1]))
	perElem := float64(bytesMoved(c.typ, c.kind, 1)) // bytes of all slices per element
	for _, cc := range caches {
		x := math.Log2(float64(cc.bytes) / perElem)
		lo, hi = min(lo, x), max(hi, x)
	}
	p.X.Min, p.X.Max = lo, hi
	for i, cc := range caches {
		x := math.Log2(float64(cc.bytes) / perElem)
		v, err := plotter.NewLine(plotter.XYs{{X: x, Y: ylo}, {X: x, Y: yhi}})
		if err != nil {
			return nil, err
		}
		v.Color, v.Dashes = color.Gray{Y: 120}, []vg.Length{vg.Points(1), vg.Points(3)}
		// Labels hang from the top, a step lower for each level so that they
		// never overlap, and sit left of lines near the right edge, where
		// they would be cut off.
		label, err := plotter.NewLabels(plotter.XYLabels{XYs: plotter.XYs{{X: x, Y: yhi}}, Labels: []string{cc.label()}})
		if err != nil {
			return nil, err
		}
		label.TextStyle[0].YAlign = text.YTop
		label.Offset = vg.Point{X: vg.Points(3), Y: -vg.Points(4 + cacheLabelStep*float64(i))}
		if x > lo+0.75*(hi-lo) {
			label.TextStyle[0].XAlign = text.XRight
			label.Offset.X = -label.Offset.X
		}
		p.Add(v, label)
	}
	return p, nil
}

// cacheLabelStep is how far, in points, each cache's label hangs below the
// one before.
const cacheLabelStep = 14

// logTicks marks 1, 2 and 5 times each power of 10 on an axis of log10(v),
// labelled with v, and the other multiples unlabelled.
func logTicks(lo, hi float64) []plot.Tick {
	var ts []plot.Tick
	for e := math.Floor(lo); e <= hi; e++ {
		for m := 1; m < 10; m++ {
			v := float64(m) * math.Pow(10, e)
			t := plot.Tick{Value: math.Log10(v)}
			if t.Value < lo || t.Value > hi {
				continue
			}
			if m == 1 || m == 2 || m == 5 {
				t.Label = strconv.FormatFloat(v, 'g', -1, 64)
			}
			ts = append(ts, t)
		}
	}
	return ts
}

// formula spells out what a curve computes, such as "dst = a + s".
func formula(c curveSpec) string {
	x, y := "a", "b"
	switch c.kind {
	case "vs":
		y = "s"
	case "sv":
		x, y = "s", "a"
	}
	switch c.op {
	case elem.OpAdd:
		return "dst = " + x + " + " + y
	case elem.OpSub:
		return "dst = " + x + " - " + y
	case elem.OpMul:
		return "dst = " + x + " * " + y
	case elem.OpDiv:
		return "dst = " + x + " / " + y
	}
	return "dst = " + c.op.String() + "(" + x + ", " + y + ")"
}

// sizeTicks marks every power of 2 on an axis of log2(n), labelling every
// third with n (8, 64, 512, 4K, ...).
func sizeTicks(lo, hi float64) []plot.Tick {
	var ts []plot.Tick
	for e := max(0, int(math.Ceil(lo))); e <= int(hi) && e < 62; e++ {
		t := plot.Tick{Value: float64(e)}
		if e%3 == 0 {
			t.Label = humanCount(1 << e)
		}
		ts = append(ts, t)
	}
	return ts
}

// humanCount writes n with a K (1024) or M (1024*1024) suffix when exact.
func humanCount(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return strconv.Itoa(n>>20) + "M"
	case n >= 1<<10 && n%(1<<10) == 0:
		return strconv.Itoa(n>>10) + "K"
	}
	return strconv.Itoa(n)
}

// humanBytes writes a cache size in KiB or MiB.
func humanBytes(n int) string { return humanCount(n) + "iB" }
