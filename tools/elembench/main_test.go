package main

import (
	"fmt"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/internal/workloads"
)

// TestMain runs the command itself, rather than the tests, when
// TestHelpExitsZero starts this binary again with elembenchMain set.
func TestMain(m *testing.M) {
	if os.Getenv(elembenchMain) != "" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

const elembenchMain = "ELEMBENCH_TEST_RUN_MAIN"

// TestHelpExitsZero checks that -h and -help print the usage and exit 0,
// as the flag package's own ExitOnError does, and that a bad flag exits 2.
func TestHelpExitsZero(t *testing.T) {
	for _, c := range []struct {
		arg  string
		code int
	}{{"-h", 0}, {"-help", 0}, {"-nosuchflag", 2}} {
		t.Run(c.arg, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], c.arg)
			cmd.Env = append(os.Environ(), elembenchMain+"=1")
			var stderr strings.Builder
			cmd.Stderr = &stderr
			err := cmd.Run()
			require.Equal(t, c.code, cmd.ProcessState.ExitCode(), "%v: %s", err, stderr.String())
			require.Contains(t, stderr.String(), "Usage of elembench:")
			require.NotContains(t, stderr.String(), "help requested")
		})
	}
}

func TestParseFlags(t *testing.T) {
	cases := []struct {
		name string
		args []string
		err  string
	}{
		{"defaults", nil, ""},
		{"workers", []string{"-workers", "3"}, ""},
		{"every core", []string{"-workers", "-1"}, ""},
		{"plot", []string{"-png", "x.png", "-svg", "x.svg", "-plot", "max/float64/sv", "-plot-max", "1000"}, ""},
		{"bad workers", []string{"-workers", "-2"}, "bad -workers -2"},
		{"bad plot", []string{"-plot", "add/float32"}, `bad -plot "add/float32"`},
		{"bad plot op", []string{"-plot", "frobnicate/float32/vv"}, `unknown op "frobnicate"`},
		{"bad plot type", []string{"-plot", "add/int/vv"}, `unknown type "int"`},
		{"bad plot kind", []string{"-plot", "add/float32/vx"}, `unknown kind "vx"`},
		{"bad plot max", []string{"-plot-max", "4"}, "bad -plot-max 4"},
		{"plot ns log", []string{"-plot-y", "ns", "-plot-logy"}, ""},
		{"bad plot y", []string{"-plot-y", "gflops"}, `bad -plot-y "gflops"`},
		{"bad op", []string{"-ops", "add,frobnicate"}, `unknown op "frobnicate"`},
		{"integer types", []string{"-types", "int8,int16,int32,int64,uint8,uint16,uint32,uint64"}, ""},
		{"bad type", []string{"-types", "float32,int128"}, `unknown type "int128"`},
		{"bad size", []string{"-sizes", "8,-1"}, `bad size "-1"`},
		{"bad reps", []string{"-reps", "0"}, "bad -reps 0"},
		{"stray argument", []string{"add"}, "unexpected arguments"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := parseFlags(c.args)
			if c.err == "" {
				require.NoError(t, err)
			} else {
				require.ErrorContains(t, err, c.err)
			}
		})
	}
	cfg, err := parseFlags([]string{"-plot", "max/float64/sv", "-plot-max", "1000", "-workers", "-1", "-plot-y", "ns", "-plot-logy"})
	require.NoError(t, err)
	require.Equal(t, curveSpec{op: elem.OpMax, typ: "float64", kind: "sv", max: 1000, nsPerElem: true, logY: true}, cfg.curve)
	require.Equal(t, -1, cfg.workers)
}

// TestKernelWorkloadsSkipUndefined checks that -ops div with integer -types
// times the floats only, and the integer types' bytes by their size.
func TestKernelWorkloadsSkipUndefined(t *testing.T) {
	cfg, err := parseFlags([]string{"-ops", "add,div", "-types", "float32,uint16", "-kinds", "vv", "-sizes", "10"})
	require.NoError(t, err)
	var names []string
	for _, w := range kernelWorkloads(cfg) {
		names = append(names, w.name)
	}
	require.Equal(t, []string{"add/float32/vv/n=10", "add/uint16/vv/n=10", "div/float32/vv/n=10"}, names)
	require.Equal(t, int64(60), bytesMoved("uint16", "vv", 10))
	require.Equal(t, int64(20), bytesMoved("int8", "vs", 10))
}

// TestFamilyWorkloads checks that -ops reaches every family, each op in
// the kinds it has and on the types it is defined on, with its own bytes.
func TestFamilyWorkloads(t *testing.T) {
	cfg, err := parseFlags([]string{"-ops", "sqrt,lt,fma,select,and,shl", "-types", "float64,int8", "-sizes", "10"})
	require.NoError(t, err)
	got := map[string]int64{}
	for _, w := range kernelWorkloads(cfg) {
		got[w.name] = w.bytes
	}
	require.Equal(t, map[string]int64{
		"sqrt/float64/v/n=10":    160,
		"lt/float64/vv/n=10":     170,
		"lt/float64/vs/n=10":     90,
		"lt/int8/vv/n=10":        30,
		"lt/int8/vs/n=10":        20,
		"select/int8/vv/n=10":    40,
		"select/int8/vs/n=10":    30,
		"fma/float64/vvv/n=10":   320,
		"select/float64/vv/n=10": 250,
		"select/float64/vs/n=10": 170,
		"and/int8/vv/n=10":       30,
		"shl/int8/vs/n=10":       20,
	}, got)
	for _, w := range kernelWorkloads(cfg) {
		require.NotPanics(t, func() { w.setup()() }, w.name)
	}
	all, err := parseFlags([]string{"-ops", "all"})
	require.NoError(t, err)
	require.Len(t, all.ops, len(benchOps()))
	_, err = parseFlags([]string{"-ops", "sqrt", "-workers", "2"})
	require.ErrorContains(t, err, "-workers times the binary ops only, not sqrt")
	_, err = parseFlags([]string{"-plot", "sqrt/float32/v"})
	require.ErrorContains(t, err, "the curve draws a binary op")
}

func TestCurveSizes(t *testing.T) {
	require.Equal(t, []int{8, 11, 16, 23, 32, 45, 64}, curveSizes(64))
	sizes := curveSizes(1 << 24)
	require.Len(t, sizes, 43)
	require.Equal(t, 1<<24, sizes[len(sizes)-1])
}

func TestLabels(t *testing.T) {
	cases := []struct {
		n    int
		want string
	}{{8, "8"}, {1000, "1000"}, {4096, "4K"}, {1 << 24, "16M"}, {3 << 19, "1536K"}}
	for _, c := range cases {
		require.Equal(t, c.want, humanCount(c.n))
	}
	var labels []string
	for _, tk := range sizeTicks(3, 24) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	require.Equal(t, []string{"8", "64", "512", "4K", "32K", "256K", "2M", "16M"}, labels)
	for _, c := range []struct {
		spec, want string
	}{{"add/float32/vv", "dst = a + b"}, {"div/float64/sv", "dst = s / a"}, {"min/float32/vs", "dst = min(a, s)"}} {
		cs, err := parseCurveSpec(c.spec, 8, "gbs", false)
		require.NoError(t, err)
		require.Equal(t, c.want, formula(cs))
	}
}

// fakeCopies is a copy reference that times nothing: every copy takes
// 10 ns per KiB moved, and the keys it was asked to measure are recorded.
func fakeCopies(workers int, measured *[]copyKey) *copyRefs {
	return &copyRefs{workers: workers, cache: map[copyKey]timing{}, measure: func(bytes int64, parts int) timing {
		*measured = append(*measured, copyKey{bytes, parts})
		ns := float64(bytes) / 100
		return timing{median: ns, min: ns, max: ns}
	}}
}

// TestPlotCurve draws a short curve into both formats, in each y unit and
// scale, and checks the files.
func TestPlotCurve(t *testing.T) {
	for _, y := range [][]string{{"-plot-y", "gbs"}, {"-plot-y", "ns", "-plot-logy"}} {
		t.Run(strings.Join(y, " "), func(t *testing.T) {
			dir := t.TempDir()
			pngFile, svgFile := filepath.Join(dir, "c.png"), filepath.Join(dir, "c.svg")
			cfg, err := parseFlags(append([]string{"-png", pngFile, "-svg", svgFile, "-plot-max", "64", "-time", "1ms", "-reps", "1"}, y...))
			require.NoError(t, err)
			var out strings.Builder
			var measured []copyKey
			require.NoError(t, plotCurve(&out, cfg, fakeCopies(0, &measured)))
			require.Contains(t, out.String(), "wrote "+pngFile)
			require.Len(t, measured, len(curveSizes(64)), "one copy per size")
			f, err := os.Open(pngFile)
			require.NoError(t, err)
			defer f.Close()
			img, err := png.Decode(f)
			require.NoError(t, err)
			require.Equal(t, 1320, img.Bounds().Dx())
			svg, err := os.ReadFile(svgFile)
			require.NoError(t, err)
			require.Contains(t, string(svg), "<svg")
		})
	}
}

// TestDrawCurveMarksLastLevel checks that the axis reaches every cache,
// the last level included, when the sizes stop short of it, and that the
// error bars span the fastest to the slowest timing.
func TestDrawCurveMarksLastLevel(t *testing.T) {
	cfg, err := parseFlags([]string{"-plot-max", "64", "-impl", "generic"})
	require.NoError(t, err)
	sizes := curveSizes(64)
	ts := make([]timing, len(sizes))
	for i := range ts {
		ts[i] = timing{median: 100, min: 90, max: 125}
	}
	ct := curveTimings{sizes: sizes, impls: map[string][]timing{"generic": ts}, copies: ts}
	caches := []cache{{name: "L1d", level: 1, bytes: 48 << 10}, {name: "L3", level: 3, bytes: 480 << 20, lastLevel: true}}
	p, err := drawCurve(cfg, ct, caches)
	require.NoError(t, err)
	require.InDelta(t, math.Log2(480<<20/12), p.X.Max, 1e-9, "float32 vv moves 12 bytes per element")
	require.InDelta(t, 3, p.X.Min, 1e-9)

	s := newSeries(cfg.curve, sizes, ts)
	moved := float64(bytesMoved("float32", "vv", 8))
	require.InDelta(t, moved/100, s.XYs[0].Y, 1e-12)
	require.InDelta(t, moved/100-moved/125, s.YErrors[0].Low, 1e-12, "the slowest timing is the lowest GB/s")
	require.InDelta(t, moved/90-moved/100, s.YErrors[0].High, 1e-12)
}

func TestLogTicks(t *testing.T) {
	var labels []string
	for _, tk := range logTicks(math.Log10(0.03), math.Log10(15)) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	require.Equal(t, []string{"0.05", "0.1", "0.2", "0.5", "1", "2", "5", "10"}, labels)
}

func TestSummarize(t *testing.T) {
	cases := []struct {
		name   string
		times  []float64
		want   timing
		spread string
		noisy  bool
	}{
		{"steady", []float64{101, 99, 100, 102, 100}, timing{median: 100, min: 99, max: 102}, "3% ", false},
		{"one outlier", []float64{100, 100, 130, 100, 100}, timing{median: 100, min: 100, max: 130}, "30%!", true},
		{"just over the limit", []float64{95, 100, 105.5}, timing{median: 100, min: 95, max: 105.5}, "10%!", true},
		{"at the limit", []float64{95, 100, 105}, timing{median: 100, min: 95, max: 105}, "10% ", false},
		{"even count", []float64{4, 1, 3, 2}, timing{median: 2.5, min: 1, max: 4}, "120%!", true},
		{"one timing", []float64{7}, timing{median: 7, min: 7, max: 7}, "0% ", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := summarize(c.times)
			require.Equal(t, c.want, got)
			require.Equal(t, c.noisy, got.noisy())
			require.Equal(t, c.spread, spreadCell(got))
		})
	}
}

func TestSpeedup(t *testing.T) {
	generic := timing{median: 100}
	require.InDelta(t, 0.2, speedup(generic, timing{median: 500}), 1e-12, "5 times slower")
	require.InDelta(t, 4, speedup(generic, timing{median: 25}), 1e-12)
	require.Equal(t, []string{"avx2", "avx512"}, comparedImpls([]string{"generic", "avx2", "avx512"}))
	require.Empty(t, comparedImpls([]string{"avx2", "avx512"}), "no generic, nothing to compare with")
	require.Empty(t, comparedImpls([]string{"generic"}))
}

// TestRowCells checks a row where one implementation is 5 times slower than
// generic and another faster: the ratios show both, and the copy columns
// compare the fastest with the copy.
func TestRowCells(t *testing.T) {
	impls := []string{"generic", "avx2", "avx512"}
	wl := workload{name: "add/float32/vv/n=1000", elems: 1000, bytes: 12000}
	ts := map[string]timing{
		"generic": {median: 1000, min: 990, max: 1010},
		"avx2":    {median: 5000, min: 4000, max: 6000},
		"avx512":  {median: 250, min: 250, max: 260},
	}
	cells := rowCells(wl, impls, ts, timing{median: 500, min: 500, max: 500})
	cs := tableColumns(impls)
	require.Len(t, cells, len(cs))
	cell := func(group, name string) string {
		i := slices.IndexFunc(cs, func(c column) bool { return c.group == group && c.name == name })
		require.GreaterOrEqual(t, i, 0, "%s %s", group, name)
		return cells[i]
	}
	require.Equal(t, "1.000", cell("generic", "ns/elem"))
	require.Equal(t, "12.0", cell("generic", "GB/s"))
	require.Equal(t, "40%!", cell("avx2", "spread"))
	require.Equal(t, "0.20x!", cell("speedup over generic", "avx2"), "slower, and noisy")
	require.Equal(t, "4.00x ", cell("speedup over generic", "avx512"))
	require.Equal(t, "24.0", cell(copyGroup, "GB/s"))
	require.Equal(t, "2.00  avx512 ", cell(copyGroup, "best/copy"))
	for _, c := range cs {
		require.GreaterOrEqual(t, c.width, len(c.name))
	}
	for _, g := range groups(cs) {
		require.GreaterOrEqual(t, span(g), len(g[0].group), "the heading %q fits over its columns", g[0].group)
	}
	var out strings.Builder
	printHeader(&out, len(wl.name), cs)
	printRow(&out, len(wl.name), wl.name, cs, cells)
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	require.Len(t, lines, 3)
	require.Contains(t, lines[0], "speedup over generic")
	end := func(line, s string) int { return strings.Index(line, s) + len(s) }
	require.Equal(t, end(lines[1], "avx2"), end(lines[2], "0.20x!"), "the mark in the column's last place")
	require.Equal(t, end(lines[1], "best/copy"), end(lines[2], "2.00  avx512")+1, "padded to the longest name")
}

func TestCopyRefs(t *testing.T) {
	var measured []copyKey
	c := fakeCopies(0, &measured)
	require.Equal(t, timing{median: 0.96, min: 0.96, max: 0.96}, c.at(96, 8))
	c.at(96, 8)
	c.at(64, 8)
	c.at(96, 8)
	require.Equal(t, []copyKey{{96, 1}, {64, 1}}, measured, "each size measured once per run")

	measured = nil
	c = fakeCopies(4, &measured)
	c.at(12<<20, 1<<20)
	c.at(12<<10, 1<<10)
	c.at(12<<20, 1<<20)
	require.Equal(t, []copyKey{{12 << 20, 4}, {12 << 10, 1}}, measured, "split as the Parallel calls split")

	cases := []struct{ workers, elems, want int }{
		{0, 1 << 24, 1}, {4, 2*parallelGrain - 1, 1}, {4, 2 * parallelGrain, 2}, {4, 1 << 24, 4}, {3, 1 << 24, 3},
	}
	for _, cs := range cases {
		require.Equal(t, cs.want, copyParts(cs.workers, cs.elems), "workers %d, %d elements", cs.workers, cs.elems)
	}
}

// TestMeasureCopy times a real copy and checks that it is a time.
func TestMeasureCopy(t *testing.T) {
	for _, parts := range []int{1, 2} {
		tm := measureCopy(1<<20, parts, time.Millisecond, 3)
		require.Positive(t, tm.min)
		require.LessOrEqual(t, tm.min, tm.median)
		require.LessOrEqual(t, tm.median, tm.max)
	}
}

func TestLegend(t *testing.T) {
	cfg, err := parseFlags(nil)
	require.NoError(t, err)
	l := legend(cfg, cfg.kinds)
	for _, want := range []string{
		"vv  ", "dst = a op b", "vs  ", "dst = a op scalar", "sv  ", "dst = scalar op a",
		"(slowest - fastest) / median of those 5 timings", "!  ", "spread above 10%: noisy",
		"below 1x it is slower", "copy() moving the same bytes",
	} {
		require.Contains(t, l, want)
	}
	require.Len(t, cfg.broadcast, len(workloads.Broadcasts))
	for _, w := range workloads.Broadcasts {
		require.NotEmpty(t, broadcastKinds[w.Name], "a description of %s", w.Name)
		require.Regexp(t, `\n  `+regexp.QuoteMeta(w.Name)+` +a `+regexp.QuoteMeta(fmt.Sprintf("%v %s b %v", w.A, w.Op, w.B))+` -> dst \(.*\) +`+regexp.QuoteMeta(broadcastKinds[w.Name])+`\n`, l)
	}
	require.Contains(t, l, "R-narrow  a (65536,64) add b (64) -> dst (65536,64)")
	require.Contains(t, l, "O         a (1024,1) add b (1,1024) -> dst (1024,1024)")
	require.Contains(t, l, "S-16K     a (16000) add b () -> dst (16000)")

	cfg, err = parseFlags([]string{"-impl", "avx2", "-broadcast", "none", "-kinds", "vs"})
	if err != nil {
		t.Skip("no avx2 here:", err)
	}
	l = legend(cfg, cfg.kinds)
	require.NotContains(t, l, "speedup", "no generic timed, no speedup column")
	require.NotContains(t, l, "broadcast workloads")
	require.Contains(t, l, "dst = a op scalar")
	require.NotContains(t, l, "dst = a op b")
	require.NotContains(t, legend(cfg, nil), "dst = a op scalar", "no kernel rows")
}

func TestDataCaches(t *testing.T) {
	want := []cache{
		{name: "L1d", level: 1, bytes: 48 << 10},
		{name: "L2", level: 2, bytes: 2 << 20},
		{name: "L3", level: 3, bytes: 480 << 20, lastLevel: true},
	}
	got := dataCaches(elem.Caches{L1d: 48 << 10, L2: 2 << 20, L3: 480 << 20, Source: "cpuid"})
	require.Equal(t, want, got)
	require.Equal(t, "L1d 48KiB, L2 2MiB, L3 480MiB (last level)", describeCaches(got))
	require.Equal(t, []cache{{name: "L1d", level: 1, bytes: 64 << 10}, {name: "L2", level: 2, bytes: 1 << 20, lastLevel: true}},
		dataCaches(elem.Caches{L1d: 64 << 10, L2: 1 << 20, Source: "sysfs"}), "no L3: the L2 is the last level")
}
