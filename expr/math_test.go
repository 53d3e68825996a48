package expr_test

import (
	"math"
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/expr"
	"github.com/simdkit/elem/internal/testkit"
)

// TestMathMatchesNamedCalls runs expressions of the math functions, parsed
// and built, through the fused kernels and checks them bit for bit against
// the named calls in sequence: SiLU, log returns and a softplus, on
// lengths that leave tails, in float32 and float64.
func TestMathMatchesNamedCalls(t *testing.T) {
	t.Run("float32", testMathMatchesNamedCalls[float32])
	t.Run("float64", testMathMatchesNamedCalls[float64])
}

// usesP matches an expression that reads the input p.
var usesP = regexp.MustCompile(`\bp\b`)

func testMathMatchesNamedCalls[T elem.Float](t *testing.T) {
	for _, n := range []int{1, 7, 100, 1037, 40000} {
		x, p := make([]T, n), make([]T, n)
		for i := range x {
			x[i] = T(math.Sin(float64(i))*12 + 0.01)
			p[i] = T(100 + float64(i%37))
		}
		shapes := map[string][]int{"x": {n}, "p": {n}}
		run := func(src string, want []T) {
			root, err := expr.Parse[T](src, shapes)
			require.NoError(t, err)
			plan, err := expr.Compile(root)
			require.NoError(t, err)
			got := make([]T, n)
			in := []expr.Binding{expr.Array("x", x)}
			if usesP.MatchString(src) {
				in = append(in, expr.Array("p", p))
			}
			require.NoError(t, plan.Run(got, in...))
			for i := range got {
				require.Equal(t, testkit.RawBits(want[i]), testkit.RawBits(got[i]), "%s at %d of %d", src, i, n)
			}
		}
		tmp, want := make([]T, n), make([]T, n)
		elem.Sigmoid(tmp, x)
		elem.Mul(want, x, tmp)
		run("x * sigmoid(x)", want)
		elem.Div(tmp, x, p)
		elem.Log1p(want, tmp)
		run("log1p(x / p)", want)
		elem.Log(tmp, p)
		elem.Exp(want, x)
		elem.Add(want, want, tmp)
		run("exp(x) + log(p)", want)
		elem.Hypot(want, x, p)
		elem.Sqrt(tmp, want)
		elem.Mul(want, tmp, x)
		run("sqrt(hypot(x, p)) * x", want)
		elem.Atan2(want, x, p)
		elem.Erf(tmp, want)
		run("erf(atan2(x, p))", tmp)
		elem.Tanh(want, x)
		elem.Exp2(tmp, want)
		elem.Log2(want, tmp)
		built, err := expr.Compile(expr.Log2(expr.Exp2(expr.Tanh(expr.Input[T]("x", n)))))
		require.NoError(t, err)
		got := make([]T, n)
		require.NoError(t, built.Run(got, expr.Array("x", x)))
		require.Equal(t, want, got)
		// Sin's slow path inside the fused kernels (|x*p^4| up to 4e9:
		// beyond 2^15 and 2^28, where the reduction changes), and pow.
		elem.Mul(tmp, x, p)
		for range 3 {
			elem.Mul(tmp, tmp, p)
		}
		elem.Sin(want, tmp)
		elem.Cos(tmp, x)
		elem.Add(want, want, tmp)
		run("sin(x * p * p * p * p) + cos(x)", want)
		elem.Pow(want, p, x)
		run("pow(p, x)", want)
		xi := expr.Input[T]("x", n)
		built, err = expr.Compile(expr.Pow(expr.Sin(xi), expr.Cos(xi)))
		require.NoError(t, err)
		require.NoError(t, built.Run(got, expr.Array("x", x)))
		elem.Sin(tmp, x)
		elem.Cos(want, x)
		elem.Pow(want, tmp, want)
		for i := range got {
			require.Equal(t, testkit.RawBits(want[i]), testkit.RawBits(got[i]), "pow(sin(x), cos(x)) at %d", i)
		}
		built, err = expr.Compile(expr.Erf(xi))
		require.NoError(t, err)
		require.NoError(t, built.Run(got, expr.Array("x", x)))
		elem.Erf(want, x)
		require.Equal(t, want, got)
	}
}
