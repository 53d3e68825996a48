package elem

import (
	"fmt"

	"github.com/simdkit/elem/internal/kernel"
)

// Matrix is a row-major matrix view, laid out as gonum's blas64.General and
// blas32.General: element (i, j) is Data[i*Stride+j] for i < Rows, j < Cols,
// and Stride >= Cols lets it be a sub-matrix of a wider one. A gonum
// *mat.Dense d converts with a struct literal:
//
//	r := d.RawMatrix()
//	m := elem.Matrix[float64]{Data: r.Data, Rows: r.Rows, Cols: r.Cols, Stride: r.Stride}
//
// The calls on matrices name their broadcast (AddRow, ApplyRow, ApplyCol,
// ApplyScalar2D, ApplyOuter, ApplyMatrix), so that the strides of the
// low-level [Apply2D] cannot be mixed up. They panic, writing nothing, on a
// malformed matrix, sizes that do not match, or a dst that shares an
// element with an input without being exactly that input.
type Matrix[T Number] struct {
	Data   []T
	Rows   int
	Cols   int
	Stride int
}

// Dense returns the contiguous rows x cols matrix over data (Stride cols).
func Dense[T Number](rows, cols int, data []T) Matrix[T] {
	return Matrix[T]{Data: data, Rows: rows, Cols: cols, Stride: cols}
}

// At returns element (i, j). An index outside the matrix panics, as an
// index expression does, even where i*Stride+j is inside Data.
func (m Matrix[T]) At(i, j int) T {
	if uint(i) >= uint(m.Rows) || uint(j) >= uint(m.Cols) {
		outOfRange(i, j, m.Rows, m.Cols)
	}
	return m.Data[i*m.Stride+j]
}

// outOfRange panics for At(i, j) of a rows x cols matrix, out of line so
// that At stays small enough to inline.
func outOfRange(i, j, rows, cols int) {
	panic(fmt.Sprintf("elem: Matrix.At: index (%d, %d) out of range [%d x %d]", i, j, rows, cols))
}

// Slice returns the sub-matrix of rows i0..i1-1 and columns j0..j1-1, sharing
// m's data, as gonum's Slice. It panics on a malformed m, as the calls on
// matrices do.
func (m Matrix[T]) Slice(i0, i1, j0, j1 int) Matrix[T] {
	m.check("Slice", "m")
	if i0 < 0 || i1 < i0 || i1 > m.Rows || j0 < 0 || j1 < j0 || j1 > m.Cols {
		panic(fmt.Sprintf("elem: Slice(%d, %d, %d, %d) out of a %d x %d matrix", i0, i1, j0, j1, m.Rows, m.Cols))
	}
	if i1 == i0 || j1 == j0 {
		return Matrix[T]{Rows: i1 - i0, Cols: j1 - j0, Stride: m.Stride}
	}
	end := (i1-1)*m.Stride + j1
	return Matrix[T]{Data: m.Data[i0*m.Stride+j0 : end], Rows: i1 - i0, Cols: j1 - j0, Stride: m.Stride}
}

// check panics, naming call and the matrix, if m is malformed.
func (m Matrix[T]) check(call, name string) {
	switch {
	case m.Rows < 0 || m.Cols < 0:
		panic(fmt.Sprintf("elem: %s: %s is %d x %d: negative size", call, name, m.Rows, m.Cols))
	case m.Stride < m.Cols:
		panic(fmt.Sprintf("elem: %s: %s (%d x %d) has stride %d < cols", call, name, m.Rows, m.Cols, m.Stride))
	case m.Rows == 0 || m.Cols == 0:
		return
	}
	switch need, ok := extent(m.Rows, m.Cols, m.Stride, 1); {
	case !ok:
		panic(fmt.Sprintf("elem: %s: %s (%d x %d, stride %d) needs more elements of data than an int can count, has %d",
			call, name, m.Rows, m.Cols, m.Stride, len(m.Data)))
	case need > len(m.Data):
		panic(fmt.Sprintf("elem: %s: %s (%d x %d, stride %d) needs %d elements of data, has %d",
			call, name, m.Rows, m.Cols, m.Stride, need, len(m.Data)))
	}
}

// sameSize panics unless dst has the rows and cols of the computation.
func sameSize[T Number](call string, dst Matrix[T], rows, cols int, what string) {
	dst.check(call, "dst")
	if dst.Rows != rows || dst.Cols != cols {
		panic(fmt.Sprintf("elem: %s: dst is %d x %d but %s is %d x %d", call, dst.Rows, dst.Cols, what, rows, cols))
	}
}

// vector panics unless v has n elements, v being the named operand of call.
func vector[T Number](call, name string, v []T, n int, along string) {
	if len(v) != n {
		panic(fmt.Sprintf("elem: %s: len(%s) = %d but the matrix has %d %s", call, name, len(v), n, along))
	}
}

// run2D checks the memory of a matrix call once and runs it through the
// trusted kernel entry: one call, the row loop inside the kernel. aName and
// bName are the call's parameters that a and b come from, for messages.
func run2D[T Number](call string, op Op, dst Matrix[T], aName string, a []T, lda, inca int, bName string, b []T, ldb, incb int) {
	m, n := dst.Rows, dst.Cols
	if err := check2D(m, n, arg2D("dst", dst.Data, dst.Stride, 1), arg2D(aName, a, lda, inca), arg2D(bName, b, ldb, incb)); err != "" {
		panic("elem: " + call + ": " + err)
	}
	apply2D(op, m, n, dst.Data, dst.Stride, a, lda, inca, b, ldb, incb,
		kernel.Streaming[T](kind2D(inca, incb), m, n, dst.Stride, lda, ldb))
}

// ApplyMatrix sets dst(i, j) = a(i, j) op b(i, j) for matrices of one size.
func ApplyMatrix[T Number](op Op, dst, a, b Matrix[T]) {
	const call = "ApplyMatrix"
	mustDefined[T](op)
	a.check(call, "a")
	b.check(call, "b")
	if a.Rows != b.Rows || a.Cols != b.Cols {
		panic(fmt.Sprintf("elem: %s: a is %d x %d but b is %d x %d", call, a.Rows, a.Cols, b.Rows, b.Cols))
	}
	sameSize(call, dst, a.Rows, a.Cols, "a")
	run2D(call, op, dst, "a", a.Data, a.Stride, 1, "b", b.Data, b.Stride, 1)
}

// ApplyRow sets dst(i, j) = m(i, j) op row[j]: row, of m.Cols elements, is
// broadcast down the rows (NumPy's m + row, a bias add).
func ApplyRow[T Number](op Op, dst, m Matrix[T], row []T) {
	const call = "ApplyRow"
	mustDefined[T](op)
	m.check(call, "m")
	vector(call, "row", row, m.Cols, "columns")
	sameSize(call, dst, m.Rows, m.Cols, "m")
	run2D(call, op, dst, "m", m.Data, m.Stride, 1, "row", row, 0, 1)
}

// AddRow sets dst(i, j) = m(i, j) + row[j]: ApplyRow(OpAdd, ...).
func AddRow[T Number](dst, m Matrix[T], row []T) { ApplyRow(OpAdd, dst, m, row) }

// ApplyCol sets dst(i, j) = m(i, j) op col[i]: col, of m.Rows elements, is
// broadcast along the columns (NumPy's m + col[:, None]).
func ApplyCol[T Number](op Op, dst, m Matrix[T], col []T) {
	const call = "ApplyCol"
	mustDefined[T](op)
	m.check(call, "m")
	vector(call, "col", col, m.Rows, "rows")
	sameSize(call, dst, m.Rows, m.Cols, "m")
	run2D(call, op, dst, "m", m.Data, m.Stride, 1, "col", col, 1, 0)
}

// ApplyScalar2D sets dst(i, j) = m(i, j) op s.
func ApplyScalar2D[T Number](op Op, dst, m Matrix[T], s T) {
	const call = "ApplyScalar2D"
	mustDefined[T](op)
	m.check(call, "m")
	sameSize(call, dst, m.Rows, m.Cols, "m")
	run2D(call, op, dst, "m", m.Data, m.Stride, 1, "s", []T{s}, 0, 0)
}

// ApplyOuter sets dst(i, j) = col[i] op row[j]: the outer "product" of a
// column of dst.Rows and a row of dst.Cols elements under op.
func ApplyOuter[T Number](op Op, dst Matrix[T], col, row []T) {
	const call = "ApplyOuter"
	mustDefined[T](op)
	dst.check(call, "dst")
	vector(call, "col", col, dst.Rows, "rows")
	vector(call, "row", row, dst.Cols, "columns")
	run2D(call, op, dst, "col", col, 1, 0, "row", row, 0, 1)
}
