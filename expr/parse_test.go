package expr

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/simdkit/elem"
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
		{"-nan * nan(0x1) + -nan(0x400001)", "((-nan * nan(0x1)) + -nan(0x400001))"},
		{"nan(0x400000) - -(-nan)", "(nan - nan)"},
		{"0x1p-3 + 0X1.8P1", "(0.125 + 3)"},
		{"σ * µ2 + x_ß", "((σ * µ2) + x_ß)"},
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

// TestParseConstantsExact checks that a constant String writes parses back
// to its bits, NaNs included (their sign and significand), and that nan
// and -nan are the same bits on every CPU.
func TestParseConstantsExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	constantsExact(t, append(testkit.RandomData[float32](rng, 200), testkit.Specials[float32]()...))
	constantsExact(t, append(testkit.RandomData[float64](rng, 200), testkit.Specials[float64]()...))
	for _, c := range []struct {
		src    string
		b32    uint32
		b64    uint64
		String string
	}{
		{"nan", 0x7fc00000, 0x7ff8000000000000, "nan"},
		{"-nan", 0xffc00000, 0xfff8000000000000, "-nan"},
		{"nan(0x1)", 0x7f800001, 0x7ff0000000000001, "nan(0x1)"},
		{"-nan(0x3)", 0xff800003, 0xfff0000000000003, "-nan(0x3)"},
	} {
		n32, err := Parse[float32](c.src, nil)
		require.NoError(t, err)
		require.Equal(t, c.b32, math.Float32bits(n32.n.val), c.src)
		require.Equal(t, c.String, n32.String())
		n64, err := Parse[float64](c.src, nil)
		require.NoError(t, err)
		require.Equal(t, c.b64, math.Float64bits(n64.n.val), c.src)
		require.Equal(t, c.String, n64.String())
	}
}

func constantsExact[T elem.Float](t *testing.T, values []T) {
	for _, v := range values {
		n, err := Parse[T](Const(v).String(), nil)
		require.NoError(t, err)
		require.Equal(t, testkit.Bits(v), testkit.Bits(n.n.val), "%v as %s", v, Const(v))
		neg, err := Parse[T](Neg(Const(v)).String(), nil)
		require.NoError(t, err)
		require.Equal(t, testkit.Bits(v), testkit.Bits(neg.n.args[0].val), "%v in %s", v, Neg(Const(v)))
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
		{"σ * x $", 7, `unexpected "$" after the expression`},
		{"é + ∑", 5, `expected an operand, found "∑"`},
		{"µ(x)", 1, `unknown function "µ"`},
		{"x\xff", 2, `unexpected "\xff" after the expression`},
		{"nan(0)", 5, "nan(P) takes the significand of a NaN of float64, 0x1 to 0xfffffffffffff, found \"0\""},
		{"nan(0x10000000000000)", 5, "nan(P) takes the significand"},
		{"nan(x)", 5, `nan(P) takes the significand of a NaN of float64, 0x1 to 0xfffffffffffff, found "x"`},
		{"nan(0x1", 8, `expected ")", found end of expression`},
		{"0x10", 1, `bad number "0x10"`},
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

// TestParseConstantNames checks that inf and nan are constants even when
// shapes names inputs so: Parse refuses the text that uses them, at the
// name, rather than read a constant where the caller meant the input.
func TestParseConstantNames(t *testing.T) {
	for _, name := range []string{"inf", "nan"} {
		shapes := map[string][]int{"x": {3}, name: {3}}
		_, err := Parse[float32]("x * -"+name, shapes)
		var pe *ParseError
		require.ErrorAs(t, err, &pe)
		require.Equal(t, 6, pe.Col, "%v", err)
		require.Equal(t, name+` is a constant, and shapes also names an input "`+name+`": rename the input`, pe.Msg)
		n, err := Parse[float32]("x * y", shapes)
		require.NoError(t, err, "an unused name does not clash")
		require.Equal(t, "(x * y)", n.String())
	}
}
