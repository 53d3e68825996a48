package expr

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/simdkit/elem/internal/testkit"
)

func TestParse(t *testing.T) {
	shapes := map[string][]int{"x": {4, 3}, "w": {3}}
	cases := []struct{ src, want string }{
		{"(x - m) / s", "((x - m) / s)"},
		{"max(x*w + b, 0)", "max(((x * w) + b), 0)"},
		{"a*s + b*t", "((a * s) + (b * t))"},
		{"x - y - z", "((x - y) - z)"},
		{"x / y * z", "((x / y) * z)"},
		{"-x", "neg(x)"},
		{"--x", "neg(neg(x))"},
		{"-2.5 * x", "(-2.5 * x)"},
		{"x * -0", "(x * -0)"},
		{"-inf + nan", "(-inf + nan)"},
		{"1e-3 + .5 + 2E+2", "((0.001 + 0.5) + 200)"},
		{"fma(x, w, 1)", "fma(x, w, 1)"},
		{"clamp(x, 0, 1)", "clamp(x, 0, 1)"},
		{"where(x >= 0, x, 0.01 * x)", "where(x >= 0, x, (0.01 * x))"},
		{"where(x != w, sqrt(abs(x)), roundeven(w))", "where(x != w, sqrt(abs(x)), roundeven(w))"},
		{"min(add(x, w), sub(x, w))", "min((x + w), (x - w))"},
		{"floor(x) + ceil(x) + trunc(x) + round(x) + neg(x)", "((((floor(x) + ceil(x)) + trunc(x)) + round(x)) + neg(x))"},
		{" x\t*\ny ", "(x * y)"},
	}
	for _, c := range cases {
		t.Run(c.src, func(t *testing.T) {
			n, err := Parse[float32](c.src, shapes)
			require.NoError(t, err)
			require.Equal(t, c.want, n.String())
			again, err := Parse[float32](n.String(), shapes)
			require.NoError(t, err)
			require.Equal(t, c.want, again.String(), "String must parse back to itself")
		})
	}
}

func TestParseInputs(t *testing.T) {
	n, err := Parse[float64]("x*w + m", map[string][]int{"x": {4, 3}, "w": {3}})
	require.NoError(t, err)
	p, err := Compile(n)
	require.NoError(t, err)
	require.Equal(t, []string{"x", "w"}, p.Inputs())
	require.Equal(t, []string{"m"}, p.Scalars())
	require.Equal(t, []int{4, 3}, p.Shape())
}

func TestParseConstantsExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, v := range append(testkit.RandomData[float32](rng, 200), testkit.Specials[float32]()...) {
		n, err := Parse[float32](Const(v).String(), nil)
		require.NoError(t, err)
		if v != v {
			require.True(t, math.IsNaN(float64(n.n.val)))
			continue
		}
		require.Equal(t, testkit.Bits(v), testkit.Bits(n.n.val), "%v", v)
	}
	for _, v := range testkit.RandomData[float64](rng, 200) {
		n, err := Parse[float64](Const(v).String(), nil)
		require.NoError(t, err)
		if v == v {
			require.Equal(t, testkit.Bits(v), testkit.Bits(n.n.val), "%v", v)
		}
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct {
		src  string
		col  int
		want string
	}{
		{"(x - ) / s", 6, `expected an operand, found ")"`},
		{"(x - m / s", 11, `expected ")", found end of expression`},
		{"x + ", 5, "expected an operand, found end of expression"},
		{"x y", 3, `unexpected "y" after the expression`},
		{"x $ y", 3, `unexpected "$"`},
		{"foo(x)", 1, `unknown function "foo"`},
		{"x + sqrt", 9, "sqrt is a function: write sqrt(...)"},
		{"max(x)", 6, `expected ",", found ")"`},
		{"max(x, y, z)", 1, "max takes 2 arguments"},
		{"x < y", 3, "a comparison (<) is only allowed as the first argument of where"},
		{"where(x, y, z)", 8, "where needs a comparison"},
		{"where(x = y, 1, 2)", 9, `"="`},
		{"1e999", 1, `bad number "1e999"`},
		{"1.2.3", 1, `bad number "1.2.3"`},
		{"max(x, (y < z))", 11, "a comparison (<) is only allowed"},
	}
	for _, c := range cases {
		t.Run(c.src, func(t *testing.T) {
			_, err := Parse[float64](c.src, nil)
			require.ErrorIs(t, err, ErrSyntax)
			var pe *ParseError
			require.True(t, errors.As(err, &pe))
			require.Equal(t, c.col, pe.Col, "column: %v", err)
			require.Contains(t, pe.Msg, c.want)
			require.Contains(t, err.Error(), c.src)
		})
	}
}
