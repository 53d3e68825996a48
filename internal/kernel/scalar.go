package kernel

// Pick is the select operation on one element: a where cond, else b. The
// registry's expression of select names it, for the generic kernels and
// for elem's loops over short slices.
func Pick[T any](cond bool, a, b T) T {
	if cond {
		return a
	}
	return b
}
