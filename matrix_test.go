package elem_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/internal/testkit"
)

// TestMatrixIssueCase is the case that Apply2D's positional strides got
// wrong: a 2 x 3 batch plus a 3-element bias.
func TestMatrixIssueCase(t *testing.T) {
	m := elem.Dense(2, 3, []float32{10, 20, 30, 13, 23, 33})
	dst := elem.Dense(2, 3, make([]float32, 6))
	elem.AddRow(dst, m, []float32{1, 2, 3})
	require.Equal(t, []float32{11, 22, 33, 14, 25, 36}, dst.Data)
}

func TestMatrixCalls(t *testing.T) {
	testkit.EachImplementation(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(31, 32))
		for _, mn := range [][2]int{{0, 3}, {3, 0}, {1, 1}, {2, 3}, {5, 17}, {33, 65}, {7, 300}} {
			rows, cols := mn[0], mn[1]
			for _, pad := range []int{0, 3} {
				testMatrixCalls[float32](t, rng, rows, cols, pad)
				testMatrixCalls[float64](t, rng, rows, cols, pad)
				testMatrixCalls[int16](t, rng, rows, cols, pad)
				testMatrixCalls[uint64](t, rng, rows, cols, pad)
			}
		}
	})
}

// testMatrixCalls checks every named call on sub-matrices (stride cols+pad)
// against the plain loops, bit for bit, in place and not.
func testMatrixCalls[T elem.Number](t *testing.T, rng *rand.Rand, rows, cols, pad int) {
	sub := func() elem.Matrix[T] {
		stride := cols + pad
		big := elem.Matrix[T]{Data: testkit.RandomNumbers[T](rng, (rows+1)*stride+pad), Rows: rows + 1, Cols: stride, Stride: stride}
		return big.Slice(1, rows+1, pad/2, pad/2+cols)
	}
	a, b, dst := sub(), sub(), sub()
	row, col := testkit.RandomNumbers[T](rng, cols), testkit.RandomNumbers[T](rng, rows)
	s := testkit.RandomNumbers[T](rng, 1)[0]
	for _, op := range elem.Ops() {
		if !elem.DefinedOn[T](op) {
			continue
		}
		what := fmt.Sprintf("%T %v %dx%d pad %d", T(0), op, rows, cols, pad)
		for _, c := range []struct {
			name string
			run  func(dst elem.Matrix[T])
			at   func(i, j int) T
		}{
			{"ApplyMatrix", func(d elem.Matrix[T]) { elem.ApplyMatrix(op, d, a, b) }, func(i, j int) T { return elem.Scalar(op, a.At(i, j), b.At(i, j)) }},
			{"ApplyRow", func(d elem.Matrix[T]) { elem.ApplyRow(op, d, a, row) }, func(i, j int) T { return elem.Scalar(op, a.At(i, j), row[j]) }},
			{"ApplyCol", func(d elem.Matrix[T]) { elem.ApplyCol(op, d, a, col) }, func(i, j int) T { return elem.Scalar(op, a.At(i, j), col[i]) }},
			{"ApplyScalar2D", func(d elem.Matrix[T]) { elem.ApplyScalar2D(op, d, a, s) }, func(i, j int) T { return elem.Scalar(op, a.At(i, j), s) }},
			{"ApplyOuter", func(d elem.Matrix[T]) { elem.ApplyOuter(op, d, col, row) }, func(i, j int) T { return elem.Scalar(op, col[i], row[j]) }},
		} {
			want := append([]T(nil), dst.Data...)
			for i := range rows {
				for j := range cols {
					want[i*dst.Stride+j] = c.at(i, j)
				}
			}
			c.run(dst)
			testkit.RequireSameBits(t, want, dst.Data, c.name+" "+what)
		}
	}
	if elem.DefinedOn[T](elem.OpMul) && rows > 0 && cols > 0 { // in place: dst exactly m
		want := append([]T(nil), a.Data...)
		for i := range rows {
			for j := range cols {
				want[i*a.Stride+j] = elem.Scalar(elem.OpMul, a.At(i, j), row[j])
			}
		}
		elem.ApplyRow(elem.OpMul, a, a, row)
		testkit.RequireSameBits(t, want, a.Data, "in place")
	}
}

// TestMatrixAt checks At inside the matrix, on a sub-matrix, and that an
// index outside it panics, as Go's index expressions do, rather than
// reading another element of Data.
func TestMatrixAt(t *testing.T) {
	m := elem.Dense(3, 4, []float32{0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23})
	require.Equal(t, float32(12), m.At(1, 2))
	require.Equal(t, float32(23), m.Slice(1, 3, 1, 4).At(1, 2))
	for _, c := range []struct {
		m    elem.Matrix[float32]
		i, j int
		want string
	}{
		{m, 0, 5, "elem: Matrix.At: index (0, 5) out of range [3 x 4]"},
		{m, 3, 0, "elem: Matrix.At: index (3, 0) out of range [3 x 4]"},
		{m, -1, 0, "elem: Matrix.At: index (-1, 0) out of range [3 x 4]"},
		{m, 0, -1, "elem: Matrix.At: index (0, -1) out of range [3 x 4]"},
		{m.Slice(0, 2, 0, 2), 0, 2, "elem: Matrix.At: index (0, 2) out of range [2 x 2]"},
	} {
		testkit.RequirePanicContains(t, c.want, func() { c.m.At(c.i, c.j) })
	}
}

func TestMatrixMisuse(t *testing.T) {
	const half = math.MaxInt/2 + 1 // 1 << 62 on 64-bit: 4 * half wraps around to 0
	d6 := make([]float32, 6)
	m := elem.Dense(2, 3, d6)
	for _, c := range []struct {
		want string
		f    func()
	}{
		{"ApplyRow: len(row) = 2 but the matrix has 3 columns", func() { elem.ApplyRow(elem.OpAdd, m, m, []float32{1, 2}) }},
		{"ApplyCol: len(col) = 3 but the matrix has 2 rows", func() { elem.ApplyCol(elem.OpAdd, m, m, []float32{1, 2, 3}) }},
		{"ApplyMatrix: dst is 3 x 2 but a is 2 x 3", func() { elem.ApplyMatrix(elem.OpAdd, elem.Dense(3, 2, make([]float32, 6)), m, m) }},
		{"m (2 x 3, stride 4) needs 7 elements of data, has 6", func() {
			elem.AddRow(m, elem.Matrix[float32]{Data: d6, Rows: 2, Cols: 3, Stride: 4}, []float32{1, 2, 3})
		}},
		{"has stride 2 < cols", func() {
			elem.AddRow(m, elem.Matrix[float32]{Data: d6, Rows: 2, Cols: 3, Stride: 2}, []float32{1, 2, 3})
		}},
		{"ApplyScalar2D: dst overlaps m without being exactly that input", func() {
			elem.ApplyScalar2D(elem.OpAdd, elem.Dense(1, 3, d6[1:4]), elem.Dense(1, 3, d6[:3]), 1)
		}},
		{"ApplyRow: dst overlaps m without being exactly that input", func() {
			elem.ApplyRow(elem.OpAdd, elem.Dense(1, 3, d6[1:4]), elem.Dense(1, 3, d6[:3]), []float32{1, 2, 3})
		}},
		{"ApplyRow: dst overlaps row without being exactly that input", func() {
			elem.ApplyRow(elem.OpAdd, elem.Dense(1, 3, d6[1:4]), elem.Dense(1, 3, make([]float32, 3)), d6[2:5])
		}},
		{"ApplyCol: dst overlaps col without being exactly that input", func() {
			elem.ApplyCol(elem.OpAdd, elem.Dense(3, 1, d6[1:4]), elem.Dense(3, 1, make([]float32, 3)), d6[:3])
		}},
		{"ApplyOuter: dst overlaps row without being exactly that input", func() {
			elem.ApplyOuter(elem.OpAdd, elem.Dense(1, 3, d6[1:4]), []float32{1}, d6[:3])
		}},
		{"ApplyMatrix: dst overlaps b without being exactly that input", func() {
			elem.ApplyMatrix(elem.OpAdd, elem.Dense(1, 3, d6[1:4]), elem.Dense(1, 3, make([]float32, 3)), elem.Dense(1, 3, d6[:3]))
		}},
		{fmt.Sprintf("m (%d x 3, stride 4) needs more elements of data than an int can count, has 6", half), func() {
			elem.AddRow(m, elem.Matrix[float32]{Data: d6, Rows: half, Cols: 3, Stride: 4}, []float32{1, 2, 3})
		}},
		{fmt.Sprintf("Slice: m (8 x 1, stride %d) needs more elements of data than an int can count", half+1), func() {
			// Row 4 starts at 4 * stride, which wraps around to 4.
			elem.Matrix[float32]{Data: d6, Rows: 8, Cols: 1, Stride: half + 1}.Slice(4, 5, 0, 1)
		}},
		{"div", func() { elem.ApplyScalar2D(elem.OpDiv, elem.Dense(1, 1, []int8{1}), elem.Dense(1, 1, []int8{1}), 1) }},
	} {
		t.Run(c.want, func(t *testing.T) {
			for i := range d6 {
				d6[i] = 7
			}
			testkit.RequirePanicContains(t, c.want, c.f)
			require.Equal(t, []float32{7, 7, 7, 7, 7, 7}, d6, c.want)
		})
	}
}
