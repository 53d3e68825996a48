//go:build linux

package kernel_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/simdkit/elem/internal/kernel"
	"github.com/simdkit/elem/internal/testkit"
)

// TestSplitFold checks SplitFold under every implementation against the
// canonical tree written out here, for every fold, row width and length
// up to 70 rows (a few registers of rows and every tail): random data with
// one value in four special (NaNs, signed zeros, infinities, subnormals),
// src flush against a guard page and dst before one. A result that is not
// a NaN must have the tree's bits; a NaN must be a NaN.
//
// It runs the checks of SplitArg (testSplitArg) and of SplitFoldVarOp's
// ops (testSplitFoldVar) too.
func TestSplitFold(t *testing.T) {
	testkit.EachImplementation(t, func(t *testing.T) {
		t.Run("float32", testSplitFold[float32])
		t.Run("float64", testSplitFold[float64])
		t.Run("arg/float32", testSplitArg[float32])
		t.Run("arg/float64", testSplitArg[float64])
		t.Run("var/float32", testSplitFoldVar[float32])
		t.Run("var/float64", testSplitFoldVar[float64])
	})
}

func testSplitFold[T testkit.Float](t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	folds := []struct {
		name string
		op   int
		f    func(x, y T) T
	}{
		{"sum", kernel.SplitFoldSum, func(x, y T) T { return x + y }},
		{"max", kernel.SplitFoldMax, func(x, y T) T { return max(x, y) }},
		{"min", kernel.SplitFoldMin, func(x, y T) T { return min(x, y) }},
		{"mean", kernel.SplitFoldMean, func(x, y T) T { return x + y }},
		{"sqdev", kernel.SplitFoldSqDev, func(x, y T) T { return x + y }},
	}
	for _, fold := range folds {
		for cols := 2; cols <= 4; cols++ {
			for rows := range 71 {
				src := testkit.AtEnd[T](testkit.NewGuardPages(t, 1+rows*cols*8/4096), rows*cols)
				copy(src, testkit.RandomData[T](rng, len(src)))
				dst := testkit.AtEnd[T](testkit.NewGuardPages(t, 1+rows*8/4096), rows)
				kernel.SplitFold(dst, src, cols, fold.op)
				for r := range rows {
					x, f := src[r*cols:], fold.f
					want := f(f(x[0], x[2%cols]), x[1])
					switch cols {
					case 2:
						want = f(x[0], x[1])
					case 4:
						want = f(f(x[0], x[2]), f(x[1], x[3]))
					}
					if fold.op == kernel.SplitFoldMean || fold.op == kernel.SplitFoldSqDev {
						want /= T(cols)
					}
					if fold.op == kernel.SplitFoldSqDev {
						var q [4]T
						for j := range cols {
							d := x[j] - want
							q[j] = T(d * d)
						}
						want = f(f(q[0], q[2%cols]), q[1])
						switch cols {
						case 2:
							want = f(q[0], q[1])
						case 4:
							want = f(f(q[0], q[2]), f(q[1], q[3]))
						}
					}
					what := fmt.Sprintf("%s of %d columns, %d rows: row %d of %v", fold.name, cols, rows, r, x[:cols])
					if want != want {
						require.True(t, dst[r] != dst[r], what)
						continue
					}
					require.Equal(t, testkit.Bits(want), testkit.Bits(dst[r]), what)
				}
			}
		}
	}
}

// testSplitArg checks SplitArg against elem.ArgMax's rule written out
// here (the first NaN; else the first index of the extreme, +0 above -0),
// for every row width and length up to 70 rows, on random data with one
// value in four special and on rows of ties and signed zeros, src flush
// against a guard page and dst before one.
func testSplitArg[T testkit.Float](t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	zero, negZero := T(0), T(math.Copysign(0, -1))
	beats := func(x, b T, greatest bool) bool {
		switch {
		case b != b:
			return false
		case x != x:
			return true
		case x == 0 && b == 0:
			return math.Signbit(float64(b)) == greatest && math.Signbit(float64(x)) != greatest
		}
		return greatest && x > b || !greatest && x < b
	}
	for _, greatest := range []bool{true, false} {
		for cols := 2; cols <= 4; cols++ {
			for rows := range 71 {
				for _, data := range []string{"random", "ties and zeros"} {
					src := testkit.AtEnd[T](testkit.NewGuardPages(t, 1+rows*cols*8/4096), rows*cols)
					if data == "random" {
						copy(src, testkit.RandomData[T](rng, len(src)))
					} else {
						pool := []T{zero, negZero, 1, 1, -1}
						for i := range src {
							src[i] = pool[rng.IntN(len(pool))]
						}
					}
					dst := testkit.AtEnd[int](testkit.NewGuardPages(t, 1+rows*8/4096), rows)
					kernel.SplitArg(dst, src, cols, greatest)
					for r := range rows {
						x, want := src[r*cols:][:cols], 0
						for j := 1; j < cols; j++ {
							if beats(x[j], x[want], greatest) {
								want = j
							}
						}
						require.Equal(t, want, dst[r], "arg (greatest %v) of %d columns, %d rows, %s: row %d of %v", greatest, cols, rows, data, r, x)
					}
				}
			}
		}
	}
}

// testSplitFoldVar checks the ops of SplitFoldVarOp: the SplitFoldSqDev
// fold (which testSplitFold checks) divided by each divisor, and its
// square root, bit for bit, NaN for NaN.
func testSplitFoldVar[T testkit.Float](t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for cols := 2; cols <= 4; cols++ {
		for _, rows := range []int{1, 7, 16, 33, 70} {
			src := testkit.RandomData[T](rng, rows*cols)
			ss := make([]T, rows)
			kernel.SplitFold(ss, src, cols, kernel.SplitFoldSqDev)
			for divisor := 1; divisor <= cols; divisor++ {
				for _, std := range []bool{false, true} {
					dst := testkit.AtEnd[T](testkit.NewGuardPages(t, 1+rows*8/4096), rows)
					kernel.SplitFold(dst, src, cols, kernel.SplitFoldVarOp(divisor, std))
					for r := range rows {
						want := ss[r] / T(divisor)
						if std {
							want = T(math.Sqrt(float64(want)))
						}
						what := fmt.Sprintf("var (std %v) of %d columns over %d, %d rows: row %d of %v", std, cols, divisor, rows, r, src[r*cols:][:cols])
						if want != want {
							require.True(t, dst[r] != dst[r], what)
							continue
						}
						require.Equal(t, testkit.Bits(want), testkit.Bits(dst[r]), what)
					}
				}
			}
		}
	}
}
