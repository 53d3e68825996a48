package elem

import (
	"fmt"
	"math"
	mathbits "math/bits"
	"unsafe"
)

// Apply2D computes, for r < m and j < n,
//
//	dst[r*ldd+j] = a[r*lda+j*inca] op b[r*ldb+j*incb]
//
// in one call: the row loop runs inside the kernel. inca and incb are 1 for
// an operand that supplies a row of n values and 0 for one that supplies one
// value per row (a column broadcast); lda or ldb = 0 repeats one row for
// every row (a row broadcast); ldd > n writes the rows of a wider matrix,
// such as a gonum mat.Dense with stride ldd. The forms a broadcast needs are
//
//	row:           inca=1, incb=1, ldb=0    m x n plus a row of n
//	column:        inca=1, incb=0, ldb=1    m x n plus a column of m
//	outer product: inca=0, lda=1, incb=1, ldb=0
//
// It panics, writing nothing, when op is invalid, a size or stride is
// negative, inca or incb is not 0 or 1, rows of dst would overlap each other
// (m > 1 and ldd < n), a slice is too short for the elements it must supply,
// or dst shares an element with an input without being exactly that input
// (same first element, ldd equal to its stride, inc 1).
func Apply2D[T Float](op Op, m, n int, dst []T, ldd int, a []T, lda, inca int, b []T, ldb, incb int) {
	mustCheck2D(op, m, n, dst, ldd, a, lda, inca, b, ldb, incb)
	apply2D(op, m, n, dst, ldd, a, lda, inca, b, ldb, incb, streaming[T](kind2D(inca, incb), m, n, lda, ldb))
}

// mustCheck2D panics, naming the problem, if check2D finds one.
func mustCheck2D[T Float](op Op, m, n int, dst []T, ldd int, a []T, lda, inca int, b []T, ldb, incb int) {
	if err := check2D(op, m, n, dst, ldd, a, lda, inca, b, ldb, incb); err != "" {
		panic("elem: Apply2D " + op.String() + ": " + err)
	}
}

// apply2D is Apply2D after the checks, storing as stream says.
func apply2D[T Float](op Op, m, n int, dst []T, ldd int, a []T, lda, inca int, b []T, ldb, incb int, stream bool) {
	if m == 0 || n == 0 {
		return
	}
	if inca == 0 && incb == 0 {
		for r := range m {
			v := Scalar(op, a[r*lda], b[r*ldb])
			row := dst[r*ldd:][:n]
			for j := range row {
				row[j] = v
			}
		}
		return
	}
	runKernel(kind2D(inca, incb), op, m, n, dst, ldd, a, lda, b, ldb, stream)
}

// kind2D is the kernel kind for inner strides inca, incb, not both 0.
func kind2D(inca, incb int) kind {
	switch {
	case inca == 1 && incb == 1:
		return kindVV
	case inca == 1:
		return kindVS
	}
	return kindSV
}

// check2D returns what is wrong with an Apply2D call, or "".
func check2D[T Float](op Op, m, n int, dst []T, ldd int, a []T, lda, inca int, b []T, ldb, incb int) string {
	switch {
	case !op.Valid():
		return "invalid " + op.String()
	case m < 0 || n < 0:
		return fmt.Sprintf("negative size %d x %d", m, n)
	case ldd < 0 || lda < 0 || ldb < 0:
		return fmt.Sprintf("negative leading stride (ldd %d, lda %d, ldb %d)", ldd, lda, ldb)
	case inca|1 != 1 || incb|1 != 1:
		return fmt.Sprintf("inner strides must be 0 or 1 (inca %d, incb %d)", inca, incb)
	case m > 1 && ldd < n:
		return fmt.Sprintf("rows of dst overlap: ldd %d < n %d", ldd, n)
	}
	if m == 0 || n == 0 {
		return ""
	}
	if !fitsIn(m, n, ldd, 1, len(dst)) || !fitsIn(m, n, lda, inca, len(a)) || !fitsIn(m, n, ldb, incb, len(b)) {
		return tooShort(m, n, dst, ldd, a, lda, inca, b, ldb, incb)
	}
	if sharesElement(dst, m, n, ldd, a, lda, inca) || sharesElement(dst, m, n, ldd, b, ldb, incb) {
		return "dst overlaps an input without being exactly that input"
	}
	return ""
}

// fitsIn reports whether an m x n block with strides ld, inc fits in length
// elements.
func fitsIn(m, n, ld, inc, length int) bool {
	need, ok := extent(m, n, ld, inc)
	return ok && need <= length
}

// tooShort names the first operand that an m x n block does not fit.
func tooShort[T Float](m, n int, dst []T, ldd int, a []T, lda, inca int, b []T, ldb, incb int) string {
	name, length, ld := "b", len(b), ldb
	switch {
	case !fitsIn(m, n, ldd, 1, len(dst)):
		name, length, ld = "dst", len(dst), ldd
	case !fitsIn(m, n, lda, inca, len(a)):
		name, length, ld = "a", len(a), lda
	}
	return fmt.Sprintf("%d x %d block with stride %d does not fit in len(%s) = %d", m, n, ld, name, length)
}

// extent is the number of elements an m x n block with leading stride ld and
// inner stride inc spans, and false when that overflows int.
func extent(m, n, ld, inc int) (int, bool) {
	hi, lo := mathbits.Mul64(uint64(m-1), uint64(ld)) // m-1, ld >= 0
	end := lo + uint64((n-1)*inc) + 1
	if hi != 0 || end < lo || end > math.MaxInt {
		return 0, false
	}
	return int(end), true
}

// sharesElement reports whether the m x n block of x (stride ld, inner
// stride inc) and the block of dst (stride ldd, inner stride 1) share an
// element, other than by x being exactly dst. Interleaved blocks of one
// matrix that never touch the same element do not share.
func sharesElement[T Float](dst []T, m, n, ldd int, x []T, ld, inc int) bool {
	d0, d1 := span(dst)
	x0, x1 := span(x)
	if d1 <= x0 || x1 <= d0 {
		return false
	}
	if d0 == x0 && ld == ldd && inc == 1 {
		return false
	}
	size, diff := int(unsafe.Sizeof(T(0))), int(x0)-int(d0)
	if diff%size != 0 {
		return true // misaligned views of the same bytes
	}
	delta := diff / size // x's element 0 is dst's element delta
	for r := range m {
		lo := delta + r*ld
		hi := lo + (n-1)*inc
		if rowsHit(lo, hi, m, n, ldd) {
			return true
		}
	}
	return false
}

// rowsHit reports whether the element interval [lo, hi] (relative to dst's
// first element) meets any of dst's rows [r*ldd, r*ldd+n) for r < m.
func rowsHit(lo, hi, m, n, ldd int) bool {
	if hi < 0 {
		return false
	}
	if m == 1 || ldd == 0 {
		return lo < n
	}
	r := max(lo, 0) / ldd
	for ; r < m && r*ldd <= hi; r++ {
		if max(lo, r*ldd) < min(hi+1, r*ldd+n) {
			return true
		}
	}
	return false
}
