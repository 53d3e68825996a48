package main

import (
	"bytes"
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/internal/bufplace"
)

// curveSpec is the workload that -png and -svg draw against its size.
type curveSpec struct {
	op        elem.Op
	typ, kind string
	max       int // the largest size, in elements
}

func (c curveSpec) String() string { return fmt.Sprintf("%s/%s/%s", c.op, c.typ, c.kind) }

// parseCurveSpec reads -plot (op/type/kind) and -plot-max.
func parseCurveSpec(spec string, maxN int) (curveSpec, error) {
	f := strings.Split(spec, "/")
	if len(f) != 3 {
		return curveSpec{}, fmt.Errorf("bad -plot %q: want op/type/kind, such as add/float32/vv", spec)
	}
	op, err := parseOp(f[0])
	if err == nil {
		err = checkType(f[1])
	}
	if err == nil {
		err = checkKind(f[2])
	}
	if err == nil && maxN < 8 {
		err = fmt.Errorf("bad -plot-max %d: the curve starts at 8 elements", maxN)
	}
	return curveSpec{op: op, typ: f[1], kind: f[2], max: maxN}, err
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

// plotCurve measures cfg.curve at every size with every implementation,
// prints the numbers, and draws them, with the copy bandwidth and the sizes
// at which the slices fill each cache, into cfg.png and cfg.svg.
func plotCurve(w io.Writer, cfg config, copyGBs float64) error {
	sizes := curveSizes(cfg.curve.max)
	fmt.Fprintf(w, "%s, GB/s by size:\n", cfg.curve)
	var gbs map[string][]float64
	if cfg.curve.typ == "float32" {
		gbs = measureCurve[float32](w, cfg, sizes)
	} else {
		gbs = measureCurve[float64](w, cfg, sizes)
	}
	p, err := drawCurve(cfg, sizes, gbs, copyGBs)
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
// elements of the largest's buffers) with every implementation, printing a
// row per size, and returns GB/s per implementation and size.
func measureCurve[T elem.Float](w io.Writer, cfg config, sizes []int) map[string][]float64 {
	bufs := bufplace.Three[T](sizes[len(sizes)-1])
	for i := range bufs[0] {
		bufs[0][i], bufs[1][i] = T(i%97)+1.5, T(i%89)+0.25
	}
	fmt.Fprintf(w, "%10s", "n")
	for _, impl := range cfg.impls {
		fmt.Fprintf(w, "  %8s", impl)
	}
	fmt.Fprintln(w)
	defer elem.SetImplementation(elem.Implementation())
	gbs := map[string][]float64{}
	for _, n := range sizes {
		run := call(cfg.curve.op, cfg.curve.kind, cfg.workers, bufs[2][:n], bufs[0][:n], bufs[1][:n])
		moved := float64(bytesMoved(cfg.curve.typ, cfg.curve.kind, n))
		fmt.Fprintf(w, "%10d", n)
		for _, impl := range cfg.impls {
			if err := elem.SetImplementation(impl); err != nil {
				panic(err) // parseFlags checked availability
			}
			gbs[impl] = append(gbs[impl], moved/measure(run, cfg.minTime, cfg.reps))
			fmt.Fprintf(w, "  %8.1f", gbs[impl][len(gbs[impl])-1])
		}
		fmt.Fprintln(w)
	}
	return gbs
}

// drawCurve plots GB/s against size, one line per implementation, with the
// copy bandwidth as a dashed line and a dotted line where the slices together
// fill each data cache.
func drawCurve(cfg config, sizes []int, gbs map[string][]float64, copyGBs float64) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("elem %s (%s) throughput by size, %s\n%s, %s/%s, %d CPUs, %s",
		cfg.curve, formula(cfg.curve), goroutines(cfg.workers), cpuModel(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version())
	p.Title.Padding = vg.Points(8)
	p.Title.TextStyle.Font.Size = vg.Points(14)
	p.X.Label.TextStyle.Font.Size, p.Y.Label.TextStyle.Font.Size = vg.Points(12), vg.Points(12)
	p.X.Tick.Label.Font.Size, p.Y.Tick.Label.Font.Size = vg.Points(11), vg.Points(11)
	p.Legend.TextStyle.Font.Size = vg.Points(12)
	p.X.Label.Text = "n, elements per slice (log scale, K = 1024); dotted: where the slices together fill a cache"
	p.Y.Label.Text = "GB/s (bytes of the slices read and written per ns)"
	// x is log2(n), labelled with n: plot.LogScale would do, but gonum then
	// centres the axis label's glyph box at the linear midpoint and shrinks
	// the plot to make room for it.
	p.X.Tick.Marker = plot.TickerFunc(sizeTicks)
	// Top left, where small sizes stay far below the peak: the cache labels
	// are along the top.
	p.Legend.Top, p.Legend.Left = true, true
	p.Legend.XOffs, p.Legend.YOffs = vg.Points(12), vg.Points(-20)
	p.Add(plotter.NewGrid())

	lo, hi := math.Log2(float64(sizes[0])), math.Log2(float64(sizes[len(sizes)-1]))
	top := copyGBs
	for i, impl := range cfg.impls {
		xys := make(plotter.XYs, len(sizes))
		for j, n := range sizes {
			xys[j] = plotter.XY{X: math.Log2(float64(n)), Y: gbs[impl][j]}
			top = max(top, gbs[impl][j])
		}
		line, points, err := plotter.NewLinePoints(xys)
		if err != nil {
			return nil, err
		}
		line.Color, line.Width = plotutil.Color(i), vg.Points(1.5)
		points.Color, points.Shape = plotutil.Color(i), plotutil.Shape(i)
		p.Add(line, points)
		p.Legend.Add(impl, line, points)
	}
	top *= 1.12
	p.X.Min, p.X.Max = lo, hi
	p.Y.Min, p.Y.Max = 0, top

	ref, err := plotter.NewLine(plotter.XYs{{X: lo, Y: copyGBs}, {X: hi, Y: copyGBs}})
	if err != nil {
		return nil, err
	}
	ref.Color, ref.Dashes = color.Gray{Y: 90}, []vg.Length{vg.Points(6), vg.Points(3)}
	p.Add(ref)
	p.Legend.Add(fmt.Sprintf("memory copy, %.1f GB/s", copyGBs), ref)

	perElem := float64(bytesMoved(cfg.curve.typ, cfg.curve.kind, 1)) // bytes of all slices per element
	for _, c := range dataCaches() {
		x := math.Log2(float64(c.bytes) / perElem)
		if x < lo || x > hi {
			continue
		}
		v, err := plotter.NewLine(plotter.XYs{{X: x, Y: 0}, {X: x, Y: top}})
		if err != nil {
			return nil, err
		}
		v.Color, v.Dashes = color.Gray{Y: 120}, []vg.Length{vg.Points(1), vg.Points(3)}
		label, err := plotter.NewLabels(plotter.XYLabels{
			XYs:    plotter.XYs{{X: x, Y: top * 0.985}},
			Labels: []string{c.name + " " + humanBytes(c.bytes)},
		})
		if err != nil {
			return nil, err
		}
		label.Offset = vg.Point{X: vg.Points(3)}
		p.Add(v, label)
	}
	return p, nil
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

// cache is one data or unified cache level of CPU 0.
type cache struct {
	name  string // L1d, L2, L3
	bytes int
}

// dataCaches reads CPU 0's data and unified caches from Linux sysfs; it
// returns none elsewhere, and the plot then has no cache lines.
func dataCaches() []cache {
	dirs, _ := filepath.Glob("/sys/devices/system/cpu/cpu0/cache/index*")
	var cs []cache
	for _, d := range dirs {
		read := func(f string) string {
			b, _ := os.ReadFile(filepath.Join(d, f))
			return strings.TrimSpace(string(b))
		}
		typ, size := read("type"), read("size")
		if typ == "Instruction" || size == "" {
			continue
		}
		mult := 1
		switch {
		case strings.HasSuffix(size, "K"):
			size, mult = size[:len(size)-1], 1<<10
		case strings.HasSuffix(size, "M"):
			size, mult = size[:len(size)-1], 1<<20
		}
		n, err := strconv.Atoi(size)
		if err != nil {
			continue
		}
		name := "L" + read("level")
		if typ == "Data" {
			name += "d"
		}
		cs = append(cs, cache{name: name, bytes: n * mult})
	}
	return cs
}
