package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/simdkit/elem/internal/workloads"
)

// TestReduceFlags checks -reduce's default sizes and that -sizes still
// rules.
func TestReduceFlags(t *testing.T) {
	cfg, err := parseFlags([]string{"-reduce"})
	require.NoError(t, err)
	require.True(t, cfg.reduce)
	require.Equal(t, []int{1000, 16000, 262144}, cfg.sizes)
	cfg, err = parseFlags([]string{"-reduce", "-sizes", "64"})
	require.NoError(t, err)
	require.Equal(t, []int{64}, cfg.sizes)
}

// TestReportReduce runs the -reduce table on small sizes: a row per
// workload, a cell per column, peers only where they have the call.
func TestReportReduce(t *testing.T) {
	cfg, err := parseFlags([]string{"-reduce", "-sizes", "64", "-reps", "1", "-time", "1us"})
	require.NoError(t, err)
	var out strings.Builder
	reportReduce(&out, cfg)
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	require.Len(t, lines, 4+len(reduceRows(cfg)))
	for _, l := range lines[4:] {
		require.Contains(t, l, "1.0x", l) // the loop's own column
	}
	require.Contains(t, out.String(), "Dot/float64/n=64")
	require.Regexp(t, `Sum/float32/n=64 .* - `, out.String(), "gonum has no float32 Sum")
	require.Contains(t, out.String(), "ReduceSum axis=0/float32/1024x1024")
}

// TestReportReduceInts runs the -reduce table on integer types: every
// call on each, and no peer.
func TestReportReduceInts(t *testing.T) {
	cfg, err := parseFlags([]string{"-reduce", "-types", "uint8,int64", "-sizes", "64", "-reps", "1", "-time", "1us"})
	require.NoError(t, err)
	var out strings.Builder
	reportReduce(&out, cfg)
	for _, name := range []string{"Sum/uint8/n=64", "Dot/uint8/n=64", "MaxOf/int64/n=64", "ArgMax/int64/n=64"} {
		require.Regexp(t, `(?m)`+name+` .* -  +-$`, out.String(), "no peer has %s", name)
	}
}

// TestReportViews runs the -views table quickly: a row per workload and
// the closing line the check reads.
func TestReportViews(t *testing.T) {
	cfg, err := parseFlags([]string{"-views", "-reps", "1", "-time", "1us"})
	require.NoError(t, err)
	require.True(t, cfg.views)
	var out strings.Builder
	reportViews(&out, cfg)
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	require.Len(t, lines, 3+len(workloads.Views))
	require.Regexp(t, `^views: worst view/contiguous = \d+\.\d\d$`, lines[len(lines)-1])
	require.Contains(t, out.String(), "a+b.T")
}
