package elem

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/simdkit/elem/internal/kernel"
	"github.com/simdkit/elem/internal/testkit"
)

// form2D is one way of laying out the operands of Apply2D.
type form2D struct {
	name       string
	a, b       func(n int) (ld, inc int) // an operand's leading and inner stride for n columns
	lddPadding int
}

func rows(pad int) func(int) (int, int) { return func(n int) (int, int) { return n + pad, 1 } }
func repeatedRow(int) (int, int)        { return 0, 1 }
func column(int) (int, int)             { return 1, 0 }

var forms2D = []form2D{
	{name: "dense", a: rows(0), b: rows(0)},
	{name: "strided", a: rows(5), b: rows(3), lddPadding: 7},
	{name: "row", a: rows(0), b: repeatedRow},
	{name: "reversed row", a: repeatedRow, b: rows(0)},
	{name: "column", a: rows(0), b: column},
	{name: "reversed column", a: column, b: rows(0)},
	{name: "outer", a: column, b: repeatedRow},
	{name: "reversed outer", a: repeatedRow, b: column},
	{name: "columns", a: column, b: column, lddPadding: 1},
}

// need is how many elements an operand with the given strides must hold.
func need(m, n, ld, inc int) int {
	if m == 0 || n == 0 {
		return 0
	}
	e, _ := extent(m, n, ld, inc)
	return e
}

func TestApply2DMatchesGeneric(t *testing.T) {
	testkit.EachImplementation(t, func(t *testing.T) {
		t.Run("float32", testApply2D[float32])
		t.Run("float64", testApply2D[float64])
	})
}

func testApply2D[T Float](t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	ns := []int{0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 129}
	for _, f := range forms2D {
		for _, op := range Ops() {
			for _, m := range []int{0, 1, 2, 3, 7} {
				for _, n := range ns {
					lda, inca := f.a(n)
					ldb, incb := f.b(n)
					ldd := n + f.lddPadding
					a := testkit.RandomData[T](rng, need(m, n, lda, inca))
					b := testkit.RandomData[T](rng, need(m, n, ldb, incb))
					g := testkit.NewGuarded[T](need(m, n, ldd, 1), n%16)
					dst := g.Window()
					want := slices.Clone(dst)
					naive2D(op, m, n, want, ldd, a, lda, inca, b, ldb, incb)

					Apply2D(op, m, n, dst, ldd, a, lda, inca, b, ldb, incb)

					what := fmt.Sprintf("%s %s %T m=%d n=%d", f.name, op, T(0), m, n)
					testkit.RequireSameBits(t, want, dst, what)
					g.RequireGuards(t, what)
				}
			}
		}
	}
}

// naive2D is the reference loop, element by element, with the generic kernels'
// exact expressions (a row of one element is the scalar loop's first operand).
func naive2D[T Float](op Op, m, n int, dst []T, ldd int, a []T, lda, inca int, b []T, ldb, incb int) {
	for r := range m {
		for j := range n {
			x, y := a[r*lda+j*inca:][:1], b[r*ldb+j*incb:][:1]
			kernel.RowVV(kernel.Op(op), dst[r*ldd+j:][:1], x, y)
		}
	}
}

// TestApply2DInPlace covers dst being exactly a or b, and interleaved blocks
// of one matrix, which share no element.
func TestApply2DInPlace(t *testing.T) {
	testkit.EachImplementation(t, func(t *testing.T) {
		const m, n, ld = 5, 19, 24
		mat := testkit.RandomData[float32](rand.New(rand.NewPCG(5, 6)), m*ld)
		row := testkit.RandomData[float32](rand.New(rand.NewPCG(7, 8)), n)

		want := slices.Clone(mat)
		naive2D(OpAdd, m, n, want, ld, slices.Clone(mat), ld, 1, row, 0, 1)
		got := slices.Clone(mat)
		Apply2D(OpAdd, m, n, got, ld, got, ld, 1, row, 0, 1)
		testkit.RequireSameBits(t, want, got, "dst = a")

		got = slices.Clone(mat)
		Apply2D(OpSub, m, n, got, ld, row, 0, 1, got, ld, 1)
		want = slices.Clone(mat)
		naive2D(OpSub, m, n, want, ld, row, 0, 1, slices.Clone(mat), ld, 1)
		testkit.RequireSameBits(t, want, got, "dst = b")

		// Columns 0..3 of each row from columns 4..7 and 8..11: interleaved, disjoint.
		got = slices.Clone(mat)
		want = slices.Clone(mat)
		naive2D(OpMul, m, 4, want, ld, slices.Clone(mat[4:]), ld, 1, slices.Clone(mat[8:]), ld, 1)
		Apply2D(OpMul, m, 4, got, ld, got[4:], ld, 1, got[8:], ld, 1)
		testkit.RequireSameBits(t, want, got, "interleaved blocks")
	})
}

func TestApply2DRejects(t *testing.T) {
	buf := make([]float64, 100)
	a, b := make([]float64, 40), make([]float64, 40)
	cases := []struct {
		name string
		call func()
		msg  string
	}{
		{"invalid op", func() { Apply2D(Op(40), 1, 1, buf, 1, a, 1, 1, b, 1, 1) }, "invalid Op(40)"},
		{"negative size", func() { Apply2D(OpAdd, -1, 3, buf, 3, a, 3, 1, b, 3, 1) }, "negative size -1 x 3"},
		{"negative stride", func() { Apply2D(OpAdd, 2, 3, buf, 3, a, -3, 1, b, 3, 1) }, "negative leading stride"},
		{"inner stride 2", func() { Apply2D(OpAdd, 2, 3, buf, 3, a, 6, 2, b, 3, 1) }, "inner strides must be 0 or 1"},
		{"dst rows overlap", func() { Apply2D(OpAdd, 2, 3, buf, 2, a, 3, 1, b, 3, 1) }, "rows of dst overlap: ldd 2 < n 3"},
		{"a too short", func() { Apply2D(OpAdd, 5, 10, buf, 10, a, 10, 1, b, 0, 1) }, "5 x 10 block with stride 10 does not fit in len(a) = 40"},
		{"dst too short", func() { Apply2D(OpAdd, 11, 10, buf, 10, a, 0, 1, b, 0, 1) }, "does not fit in len(dst) = 100"},
		{"stride overflow", func() { Apply2D(OpAdd, 3, 1, buf, 1, a, math.MaxInt/2+1, 1, b, 0, 1) }, "does not fit in len(a)"},
		{"input shifted inside dst", func() { Apply2D(OpAdd, 3, 10, buf, 10, buf[1:], 10, 1, b, 0, 1) }, "dst overlaps a without being exactly that input"},
		{"column inside dst", func() { Apply2D(OpAdd, 3, 10, buf, 10, a, 10, 1, buf[15:], 1, 0) }, "dst overlaps b without being exactly that input"},
		{"same start, other stride", func() { Apply2D(OpAdd, 3, 10, buf, 10, buf, 20, 1, b, 0, 1) }, "dst overlaps a without being exactly that input"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := slices.Clone(buf)
			testkit.RequirePanicContains(t, c.msg, c.call)
			require.Equal(t, before, buf, "nothing written")
		})
	}
}
