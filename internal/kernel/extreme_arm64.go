//go:build !purego

package kernel

// extremeRest completes i, the index the NEON extreme's kernel found in the
// whole registers a[:m], with the generic loop over the last elements: the
// greatest (least) of the two, the earlier on a tie, -1 for a NaN.
func extremeRest[T Number](a []T, m, i int, greatest bool) int {
	if i < 0 || m == len(a) {
		return i
	}
	j := ArgMinGeneric(a[m:])
	if greatest {
		j = ArgMaxGeneric(a[m:])
	}
	switch {
	case j < 0:
		return -1
	case m == 0, greatest && a[m+j] > a[i], !greatest && a[m+j] < a[i]:
		return m + j
	}
	return i
}

// valuedRest completes b, the bits the NEON kernel of GreatestBits
// (LeastBits) found in the whole registers a[:m], with the generic loop
// over the last elements.
func valuedRest[T Number](a []T, m, b int, greatest bool) int {
	if b == -1 || m == len(a) { // -1: a NaN (see GreatestBits)
		return b
	}
	r := LeastBitsGeneric(a[m:])
	if greatest {
		r = GreatestBitsGeneric(a[m:])
	}
	if m == 0 {
		return r
	}
	return joinExtremeBits[T](b, r, greatest)
}
