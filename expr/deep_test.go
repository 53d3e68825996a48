package expr

import (
	"errors"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestParseNesting checks that Parse reads text nested MaxNesting deep,
// and that deeper text, however deep, is a *ParseError at the token that
// opens one level too many (no stack overflow, which no recover catches).
func TestParseNesting(t *testing.T) {
	nest := func(open, close string, depth int) string {
		return strings.Repeat(open, depth) + "x" + strings.Repeat(close, depth)
	}
	for _, c := range []struct {
		name, open, close string
	}{{"parentheses", "(", ")"}, {"calls", "abs(", ")"}, {"minus signs", "-", ""}, {"mixed", "-(", ")"}} {
		t.Run(c.name, func(t *testing.T) {
			depth := MaxNesting
			if c.name == "mixed" {
				depth /= 2
			}
			_, err := Parse[float32](nest(c.open, c.close, depth), nil)
			require.NoError(t, err)
			for _, deeper := range []int{depth + 1, 1_000_000} {
				src := nest(c.open, c.close, deeper)
				_, err := Parse[float32](src, nil)
				var pe *ParseError
				require.True(t, errors.As(err, &pe), "%d deep: %v", deeper, err)
				require.Equal(t, "nested more than 1000 deep (parentheses, function calls and minus signs)", pe.Msg)
				openAt := strings.Index(src[depth*len(c.open):], c.open[:1]) // the first token of the level too many
				if c.name == "calls" {
					openAt += len("abs")
				}
				require.Equal(t, depth*len(c.open)+openAt+1, pe.Col)
			}
		})
	}
}

// TestDeepExpressions builds expressions far deeper than the goroutine
// stack would allow a recursive walk (the stack is limited to 1 MiB here),
// as the builder can: left- and right-leaning chains of Add, and of Neg;
// each must print, compile and run. A shared node used twice at each of 64
// levels stands for 2^64 paths, which Compile must not walk.
func TestDeepExpressions(t *testing.T) {
	const depth = 25_000
	defer debug.SetMaxStack(debug.SetMaxStack(1 << 20))
	x := Input[float64]("x", 3)
	xs := []float64{1, -2, 0.5}
	left, right, neg, doubled := x, x, x, x
	for range depth {
		left, right, neg = Add(left, x), Add(x, right), Neg(neg)
	}
	for range 64 {
		doubled = Add(doubled, doubled)
	}
	for _, c := range []struct {
		name   string
		root   Node[float64]
		prefix string
		times  float64 // the output is x times this
	}{
		{"left", left, strings.Repeat("(", depth) + "x + x)", depth + 1},
		{"right", right, "(x + (x + (x", depth + 1},
		{"neg", neg, strings.Repeat("neg(", depth) + "x)", 1},
		{"doubled", doubled, "", 1 << 64},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.prefix != "" {
				require.True(t, strings.HasPrefix(c.root.String(), c.prefix))
			}
			p, err := Compile(c.root)
			require.NoError(t, err)
			got := make([]float64, 3)
			require.NoError(t, p.Run(got, Array("x", xs)))
			for i, v := range xs {
				require.Equal(t, v*c.times, got[i], "element %d", i)
			}
		})
	}
}

// TestDeepRoundTrip checks that String's text of a chain as deep as
// MaxNesting parses back to the same text (a Sub nests one level in its
// parentheses, a neg inside it one more).
func TestDeepRoundTrip(t *testing.T) {
	x := Input[float32]("x", 4)
	sum := x
	for range MaxNesting - 1 {
		sum = Sub(sum, Neg(x))
	}
	again, err := Parse[float32](sum.String(), map[string][]int{"x": {4}})
	require.NoError(t, err)
	require.Equal(t, sum.String(), again.String())
}
