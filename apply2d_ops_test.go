package elem

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/simdkit/elem/internal/kernel"
	"github.com/simdkit/elem/internal/testkit"
)

// form2DOps is one of the 2-D calls of the other families, on type-erased
// operands: dst, then inputs with their leading and inner strides; and the
// reference for one element.
type form2DOps struct {
	name   string
	inputs []string // "T" or "bool"
	out    string
	run    func(op, m, n int, dst any, ldd int, in []any, ld, inc []int)
	one    func(op int, dst any, in []any) // dst[0] = op(in[i][0]...)
	ops    int
}

func forms2DOps() []form2DOps {
	T := "T"
	return []form2DOps{
		{"ApplyUnary2D", []string{T}, T, func(op, m, n int, dst any, ldd int, in []any, ld, inc []int) {
			ApplyUnary2D(UnaryOp(op), m, n, dst.([]float64), ldd, in[0].([]float64), ld[0], inc[0])
		}, func(op int, dst any, in []any) {
			kernel.ReferenceUnary(kernel.V, kernel.UnaryOp(op), 1, 1, dst.([]float64), 0, in[0].([]float64), 0)
		}, len(UnaryOps())},
		{"Compare2D", []string{T, T}, "bool", func(op, m, n int, dst any, ldd int, in []any, ld, inc []int) {
			Compare2D(CompareOp(op), m, n, dst.([]bool), ldd, in[0].([]float64), ld[0], inc[0], in[1].([]float64), ld[1], inc[1])
		}, func(op int, dst any, in []any) {
			kernel.ReferenceCompare(kernel.VV, kernel.CompareOp(op), 1, 1, dst.([]bool), 0, in[0].([]float64), 0, in[1].([]float64), 0)
		}, len(CompareOps())},
		{"ApplyTernary2D", []string{T, T, T}, T, func(op, m, n int, dst any, ldd int, in []any, ld, inc []int) {
			ApplyTernary2D(TernaryOp(op), m, n, dst.([]float64), ldd, in[0].([]float64), ld[0], inc[0],
				in[1].([]float64), ld[1], inc[1], in[2].([]float64), ld[2], inc[2])
		}, func(op int, dst any, in []any) {
			kernel.ReferenceTernary(kernel.VVV, kernel.TernaryOp(op), 1, 1, dst.([]float64), 0,
				in[0].([]float64), 0, in[1].([]float64), 0, in[2].([]float64), 0)
		}, len(TernaryOps())},
		{"Select2D", []string{"bool", T, T}, T, func(_, m, n int, dst any, ldd int, in []any, ld, inc []int) {
			Select2D(m, n, dst.([]float64), ldd, in[0].([]bool), ld[0], inc[0], in[1].([]float64), ld[1], inc[1], in[2].([]float64), ld[2], inc[2])
		}, func(_ int, dst any, in []any) {
			kernel.ReferenceSelection(kernel.VVV, kernel.OpSelect, 1, 1, dst.([]float64), 0, in[0].([]bool), 0, in[1].([]float64), 0, in[2].([]float64), 0)
		}, 1},
	}
}

// elemAt returns element i of a type-erased slice as a one-element slice.
func elemAt(x any, i int) any {
	if b, ok := x.([]bool); ok {
		return b[i : i+1]
	}
	return x.([]float64)[i : i+1]
}

// TestApply2DOps checks the 2-D calls of every family on every inner-stride
// combination, per-row inputs included, against the reference element by
// element, with padded rows and guard cells.
func TestApply2DOps(t *testing.T) {
	testkit.EachImplementation(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(21, 22))
		for _, f := range forms2DOps() {
			for op := range f.ops {
				for mask := range 1 << len(f.inputs) {
					for _, mn := range [][2]int{{0, 3}, {1, 1}, {3, 17}, {4, 5}} {
						m, n := mn[0], mn[1]
						ins := make([]any, len(f.inputs))
						ld, inc := make([]int, len(f.inputs)), make([]int, len(f.inputs))
						for i, typ := range f.inputs {
							inc[i] = mask >> i & 1
							ld[i] = n*inc[i] + 1 + i
							size := max(0, (m-1)*ld[i]+(n-1)*inc[i]+1)
							if m == 0 || n == 0 {
								size = 0
							}
							ins[i] = randomOf(rng, typ, size)
						}
						ldd := n + 2
						g := testkit.NewGuarded[float64](max(0, (m-1)*ldd+n), 3)
						var dst any = g.Window()
						var gb testkit.Guarded[bool]
						if f.out == "bool" {
							gb = testkit.NewGuarded[bool](max(0, (m-1)*ldd+n), 3)
							dst = gb.Window()
						}
						f.run(op, m, n, dst, ldd, ins, ld, inc)
						what := fmt.Sprintf("%s op %d mask %b %dx%d", f.name, op, mask, m, n)
						for r := range m {
							for j := range n {
								args := make([]any, len(ins))
								for i := range ins {
									args[i] = elemAt(ins[i], r*ld[i]+j*inc[i])
								}
								want := makeSlice[float64](f.out, 1)
								f.one(op, want, args)
								requireSameAny[float64](t, want, elemAt(dst, r*ldd+j), fmt.Sprintf("%s at %d,%d", what, r, j))
							}
						}
						if f.out == "bool" {
							gb.RequireGuards(t, what)
						} else {
							g.RequireGuards(t, what)
						}
					}
				}
			}
		}
	})
}

func randomOf(rng *rand.Rand, typ string, n int) any {
	if typ == "bool" {
		b := make([]bool, n)
		for i := range b {
			b[i] = rng.IntN(2) == 0
		}
		return b
	}
	return testkit.RandomData[float64](rng, n)
}

func TestApply2DOpsRejects(t *testing.T) {
	buf, a := make([]float64, 40), make([]float64, 40)
	mask := make([]bool, 40)
	cases := []struct {
		name string
		call func()
		msg  string
	}{
		{"unary too short", func() { ApplyUnary2D(OpSqrt, 4, 10, buf, 10, a[:30], 10, 1) }, "elem: ApplyUnary2D sqrt: 4 x 10 block with stride 10 does not fit in len(a) = 30"},
		{"compare inner stride", func() { Compare2D(OpLt, 2, 3, mask, 3, a, 3, 2, a, 3, 1) }, "inner strides must be 0 or 1 (inca 2, incb 1)"},
		{"ternary overlap", func() { ApplyTernary2D(OpFMA, 2, 3, buf, 3, a, 3, 1, a, 3, 1, buf[1:], 3, 1) }, "dst overlaps c without being exactly that input"},
		{"select negative stride", func() { Select2D(2, 3, buf, 3, mask, -3, 1, a, 3, 1, a, 3, 1) }, "negative leading stride (ldd 3, ldcond -3, lda 3, ldb 3)"},
		{"invalid op", func() { ApplyUnary2D(UnaryOp(50), 1, 1, buf, 1, a, 1, 1) }, "elem: invalid UnaryOp(50)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := append([]float64(nil), buf...)
			testkit.RequirePanicContains(t, c.msg, c.call)
			require.Equal(t, before, buf, "nothing written")
		})
	}
}
