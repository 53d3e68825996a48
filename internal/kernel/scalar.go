package kernel

// pick is the select operation on one element: a where cond, else b.
func pick[T any](cond bool, a, b T) T {
	if cond {
		return a
	}
	return b
}
