package elem

import (
	"fmt"
	"math"
	mathbits "math/bits"
	"strings"
	"unsafe"

	"github.com/simdkit/elem/internal/alias"
	"github.com/simdkit/elem/internal/kernel"
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
//	scalar:        inca=0, lda=0 (or incb=0, ldb=0): a[0] for every element
//
// Eleven positional ints are easy to mix up (ldb, incb = 1, 0 where 0, 1
// was meant turns a row broadcast into a column one): for a matrix, prefer
// the named calls on [Matrix] (AddRow, ApplyRow, ApplyCol, ApplyScalar2D,
// ApplyOuter, ApplyMatrix), which run this same kernel.
//
// It panics, writing nothing, when op is invalid, a size or stride is
// negative, inca or incb is not 0 or 1, rows of dst would overlap each other
// (m > 1 and ldd < n), a slice is too short for the elements it must supply,
// or dst shares an element with an input without being exactly that input
// (same first element, ldd equal to its stride, inc 1).
func Apply2D[T Number](op Op, m, n int, dst []T, ldd int, a []T, lda, inca int, b []T, ldb, incb int) {
	mustCheck2D(op, m, n, dst, ldd, a, lda, inca, b, ldb, incb)
	apply2D(op, m, n, dst, ldd, a, lda, inca, b, ldb, incb, kernel.Streaming[T](kind2D(inca, incb), m, n, ldd, lda, ldb))
}

// mustCheck2D panics, naming the problem, if check2D finds one.
func mustCheck2D[T Number](op Op, m, n int, dst []T, ldd int, a []T, lda, inca int, b []T, ldb, incb int) {
	mustDefined[T](op)
	if err := check2D(m, n, arg2D("dst", dst, ldd, 1), arg2D("a", a, lda, inca), arg2D("b", b, ldb, incb)); err != "" {
		panic("elem: Apply2D " + op.String() + ": " + err)
	}
}

// apply2D is Apply2D after the checks, storing as stream says.
func apply2D[T Number](op Op, m, n int, dst []T, ldd int, a []T, lda, inca int, b []T, ldb, incb int, stream bool) {
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
	kernel.Binary(kind2D(inca, incb), kernel.Op(op), m, n, dst, ldd, a, lda, b, ldb, stream)
	kernel.FenceAfter(stream)
}

// kind2D is the kernel kind for inner strides inca, incb, not both 0.
func kind2D(inca, incb int) kernel.Kind {
	switch {
	case inca == 1 && incb == 1:
		return kernel.VV
	case inca == 1:
		return kernel.VS
	}
	return kernel.SV
}

// operand2D is one operand of a 2-D call, for its checks: the memory of its
// slice, and its leading and inner strides.
type operand2D struct {
	name    string
	length  int
	ld, inc int
	start   uintptr
	elem    int
}

func arg2D[S any](name string, s []S, ld, inc int) operand2D {
	var zero S
	return operand2D{name, len(s), ld, inc, uintptr(unsafe.Pointer(unsafe.SliceData(s))), int(unsafe.Sizeof(zero))}
}

// span is the m x n block of o for package alias.
func (o operand2D) span(m, n int) alias.Span {
	return alias.Span{Start: o.start, Elem: o.elem, Size: []int{m, n}, Stride: []int{o.ld, o.inc}}
}

// check2D returns what is wrong with a 2-D call of m x n elements writing
// dst (inner stride 1) from ins, or "": a negative size or stride, an inner
// stride other than 0 or 1, rows of dst that overlap each other, a slice too
// short for its block, or dst sharing an element with an input without
// being exactly that input.
func check2D(m, n int, dst operand2D, ins ...operand2D) string {
	negative, badInc := dst.ld < 0, false
	for _, o := range ins {
		negative = negative || o.ld < 0
		badInc = badInc || o.inc|1 != 1
	}
	switch {
	case m < 0 || n < 0:
		return fmt.Sprintf("negative size %d x %d", m, n)
	case negative:
		return "negative leading stride (" + strides(append([]operand2D{dst}, ins...), "ld") + ")"
	case badInc:
		return "inner strides must be 0 or 1 (" + strides(ins, "inc") + ")"
	case m > 1 && dst.ld < n:
		return fmt.Sprintf("rows of dst overlap: ldd %d < n %d", dst.ld, n)
	case m == 0 || n == 0:
		return ""
	}
	if !fitsIn(m, n, dst.ld, dst.inc, dst.length) {
		return dst.doesNotFit(m, n)
	}
	for _, o := range ins {
		if !fitsIn(m, n, o.ld, o.inc, o.length) {
			return o.doesNotFit(m, n)
		}
	}
	for _, o := range ins {
		if dst.mayConflict(o, m, n) && alias.Conflict(dst.span(m, n), o.span(m, n)) {
			return "dst overlaps " + o.name + " without being exactly that input"
		}
	}
	return ""
}

// doesNotFit is check2D's message for an operand too short for its block.
func (o operand2D) doesNotFit(m, n int) string {
	return fmt.Sprintf("%d x %d block with stride %d does not fit in len(%s) = %d", m, n, o.ld, o.name, o.length)
}

// mayConflict reports whether the m x n blocks of o and x (which fit in
// their slices) could conflict: they are not exactly the same block, and
// their byte ranges meet. Most calls are settled by this without the
// general analysis of alias.Conflict, which allocates.
func (o operand2D) mayConflict(x operand2D, m, n int) bool {
	if o.start == x.start && o.ld == x.ld && o.inc == x.inc && o.elem == x.elem {
		return false
	}
	oe, _ := extent(m, n, o.ld, o.inc)
	xe, _ := extent(m, n, x.ld, x.inc)
	return o.start < x.start+uintptr(xe*x.elem) && x.start < o.start+uintptr(oe*o.elem)
}

// strides lists the leading ("ld") or inner ("inc") strides of os for a
// message: "ldd 4, lda 2, ldb -1". Only a failed check builds it.
func strides(os []operand2D, which string) string {
	var parts []string
	for _, o := range os {
		name, v := o.name, o.inc
		if which == "ld" {
			name, v = strings.Replace(name, "dst", "d", 1), o.ld
		}
		parts = append(parts, fmt.Sprintf("%s%s %d", which, name, v))
	}
	return strings.Join(parts, ", ")
}

// fitsIn reports whether an m x n block with strides ld, inc fits in length
// elements.
func fitsIn(m, n, ld, inc, length int) bool {
	need, ok := extent(m, n, ld, inc)
	return ok && need <= length
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
