package elem

import (
	"unsafe"

	"github.com/simdkit/elem/internal/kernel"
)

// The 2-D forms of the families beyond the binary ops, as Apply2D: for
// r < m and j < n each input supplies x[r*ldx+j*incx], a row of n values
// (inc 1) or one value per row (inc 0); a leading stride of 0 repeats one
// row. The row loop runs inside the kernel. They panic, writing nothing, on
// the misuses Apply2D rejects, and on an op not defined on T.

// ApplyUnary2D computes dst[r*ldd+j] = op(a[r*lda+j*inca]).
func ApplyUnary2D[T Number](op UnaryOp, m, n int, dst []T, ldd int, a []T, lda, inca int) {
	if !UnaryDefinedOn[T](op) {
		panic(notDefinedOn(op, isFloat[T]()))
	}
	must2D("ApplyUnary2D "+op.String(), m, n, arg2D("dst", dst, ldd, 1), arg2D("a", a, lda, inca))
	if m == 0 || n == 0 {
		return
	}
	k, ok := kernel.KindFor(1, inca)
	if !ok {
		for r := range m {
			row := dst[r*ldd:][:n]
			kernel.Unary(kernel.V, kernel.UnaryOp(op), 1, 1, row, 0, a[r*lda:], 0, false)
			fill(row)
		}
		return
	}
	stream := stream2D[T](m, n, ldd, lda, inca)
	kernel.Unary(k, kernel.UnaryOp(op), m, n, dst, ldd, a, lda, stream)
	kernel.FenceAfter(stream)
}

// Compare2D computes dst[r*ldd+j] = a[r*lda+j*inca] op b[r*ldb+j*incb].
func Compare2D[T Number](op CompareOp, m, n int, dst []bool, ldd int, a []T, lda, inca int, b []T, ldb, incb int) {
	if !CompareDefinedOn[T](op) {
		panic(notDefinedOn(op, isFloat[T]()))
	}
	must2D("Compare2D "+op.String(), m, n, arg2D("dst", dst, ldd, 1), arg2D("a", a, lda, inca), arg2D("b", b, ldb, incb))
	if m == 0 || n == 0 {
		return
	}
	k, ok := kernel.KindFor(2, inca|incb<<1)
	if !ok {
		for r := range m {
			row := dst[r*ldd:][:n]
			kernel.Compare(kernel.VV, kernel.CompareOp(op), 1, 1, row, 0, a[r*lda:], 0, b[r*ldb:], 0, false)
			fill(row)
		}
		return
	}
	kernel.Compare(k, kernel.CompareOp(op), m, n, dst, ldd, a, lda, b, ldb, false)
}

// ApplyTernary2D computes dst[r*ldd+j] = op(a[r*lda+j*inca],
// b[r*ldb+j*incb], c[r*ldc+j*incc]).
func ApplyTernary2D[T Number](op TernaryOp, m, n int, dst []T, ldd int, a []T, lda, inca int, b []T, ldb, incb int, c []T, ldc, incc int) {
	if !TernaryDefinedOn[T](op) {
		panic(notDefinedOn(op, isFloat[T]()))
	}
	must2D("ApplyTernary2D "+op.String(), m, n, arg2D("dst", dst, ldd, 1), arg2D("a", a, lda, inca), arg2D("b", b, ldb, incb), arg2D("c", c, ldc, incc))
	if m == 0 || n == 0 {
		return
	}
	k, ok := kernel.KindFor(3, inca|incb<<1|incc<<2)
	if !ok {
		for r := range m {
			row := dst[r*ldd:][:n]
			kernel.Ternary(kernel.VVV, kernel.TernaryOp(op), 1, 1, row, 0, a[r*lda:], 0, b[r*ldb:], 0, c[r*ldc:], 0, false)
			fill(row)
		}
		return
	}
	stream := stream2D[T](m, n, ldd, lda, inca, ldb, incb, ldc, incc)
	kernel.Ternary(k, kernel.TernaryOp(op), m, n, dst, ldd, a, lda, b, ldb, c, ldc, stream)
	kernel.FenceAfter(stream)
}

// Select2D computes dst[r*ldd+j] = a[r*lda+j*inca] where
// cond[r*ldcond+j*inccond], else b[r*ldb+j*incb].
func Select2D[T Number](m, n int, dst []T, ldd int, cond []bool, ldcond, inccond int, a []T, lda, inca int, b []T, ldb, incb int) {
	must2D("Select2D", m, n, arg2D("dst", dst, ldd, 1), arg2D("cond", cond, ldcond, inccond), arg2D("a", a, lda, inca), arg2D("b", b, ldb, incb))
	if m == 0 || n == 0 {
		return
	}
	k, ok := kernel.KindFor(3, inccond|inca<<1|incb<<2)
	if !ok {
		for r := range m {
			row := dst[r*ldd:][:n]
			kernel.Select(kernel.VVV, 1, 1, row, 0, cond[r*ldcond:], 0, a[r*lda:], 0, b[r*ldb:], 0, false)
			fill(row)
		}
		return
	}
	stream := stream2D[T](m, n, ldd, lda, inca, ldb, incb)
	kernel.Select(k, m, n, dst, ldd, cond, ldcond, a, lda, b, ldb, stream)
	kernel.FenceAfter(stream)
}

// must2D panics, naming the call, if check2D finds a problem.
func must2D(call string, m, n int, dst operand2D, ins ...operand2D) {
	if err := check2D(m, n, dst, ins...); err != "" {
		panic("elem: " + call + ": " + err)
	}
}

// fill sets every element of row to its first.
func fill[E any](row []E) {
	for j := 1; j < len(row); j++ {
		row[j] = row[0]
	}
}

// stream2D reports whether an m x n block of T, dst's rows ldd apart,
// should be written with non-temporal stores: the traffic counts dst and
// every input (given as ld, inc pairs) with a row of values per row, and the
// rows must take them (kernel.StreamBlock).
func stream2D[T Number](m, n, ldd int, ldinc ...int) bool {
	arrays := 1
	for i := 0; i < len(ldinc); i += 2 {
		if ldinc[i+1] == 1 && (m == 1 || ldinc[i] != 0) {
			arrays++
		}
	}
	size := int(unsafe.Sizeof(T(0)))
	return kernel.StreamBlock(m, n, ldd, size) && kernel.ShouldStream(m*n*arrays*size)
}
