package elem

// CumSum sets dst[i] = a[0] + a[1] + ... + a[i], added in that order as
// NumPy's cumsum does: dst[0] = a[0], then dst[i] = dst[i-1] + a[i], each
// sum rounded to T: the bits of the plain loop, which no other order
// gives. On the integer types the sums wrap around. dst may be a itself.
// It panics if the lengths differ or dst partly overlaps a.
func CumSum[T Number](dst, a []T) {
	if !fits(dst, a) {
		mustFit("CumSum", in("dst", dst), in("a", a))
	}
	if len(a) == 0 {
		return
	}
	s := a[0]
	dst[0] = s
	for i := 1; i < len(a); i++ {
		s += a[i]
		dst[i] = s
	}
}

// CumProd sets dst[i] = a[0] * a[1] * ... * a[i], multiplied in that order
// (dst[i] = dst[i-1] * a[i]), with CumSum's contract.
func CumProd[T Number](dst, a []T) {
	if !fits(dst, a) {
		mustFit("CumProd", in("dst", dst), in("a", a))
	}
	if len(a) == 0 {
		return
	}
	p := a[0]
	dst[0] = p
	for i := 1; i < len(a); i++ {
		p *= a[i]
		dst[i] = p
	}
}
