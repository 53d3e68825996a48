package main

import (
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/simdkit/elem"
)

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
		{"bad plot op", []string{"-plot", "pow/float32/vv"}, `unknown op "pow"`},
		{"bad plot type", []string{"-plot", "add/int/vv"}, `unknown type "int"`},
		{"bad plot kind", []string{"-plot", "add/float32/vx"}, `unknown kind "vx"`},
		{"bad plot max", []string{"-plot-max", "4"}, "bad -plot-max 4"},
		{"bad op", []string{"-ops", "add,pow"}, `unknown op "pow"`},
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
	cfg, err := parseFlags([]string{"-plot", "max/float64/sv", "-plot-max", "1000", "-workers", "-1"})
	require.NoError(t, err)
	require.Equal(t, curveSpec{op: elem.OpMax, typ: "float64", kind: "sv", max: 1000}, cfg.curve)
	require.Equal(t, -1, cfg.workers)
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
		cs, err := parseCurveSpec(c.spec, 8)
		require.NoError(t, err)
		require.Equal(t, c.want, formula(cs))
	}
}

// TestPlotCurve draws a short curve into both formats and checks the files.
func TestPlotCurve(t *testing.T) {
	dir := t.TempDir()
	pngFile, svgFile := filepath.Join(dir, "c.png"), filepath.Join(dir, "c.svg")
	cfg, err := parseFlags([]string{"-png", pngFile, "-svg", svgFile, "-plot-max", "64", "-time", "1ms", "-reps", "1"})
	require.NoError(t, err)
	var out strings.Builder
	require.NoError(t, plotCurve(&out, cfg, 20))
	require.Contains(t, out.String(), "wrote "+pngFile)
	f, err := os.Open(pngFile)
	require.NoError(t, err)
	defer f.Close()
	img, err := png.Decode(f)
	require.NoError(t, err)
	require.Equal(t, 1320, img.Bounds().Dx())
	svg, err := os.ReadFile(svgFile)
	require.NoError(t, err)
	require.Contains(t, string(svg), "<svg")
}
