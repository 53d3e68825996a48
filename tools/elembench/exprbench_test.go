package main

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestExprFlag(t *testing.T) {
	cfg, err := parseFlags([]string{"-expr"})
	require.NoError(t, err)
	require.True(t, cfg.expr)
}

// TestWorstLine pins the closing line the independent check reads.
func TestWorstLine(t *testing.T) {
	require.Equal(t, "expr: worst 16M fused/Add = 1.24", worstLine(1.2391))
}

func TestDuration(t *testing.T) {
	for _, c := range []struct {
		ns   float64
		want string
	}{{512, "512 ns"}, {16400, "16.40 µs"}, {9_870_000, "9.87 ms"}} {
		require.Equal(t, c.want, duration(timing{median: c.ns}))
	}
}
