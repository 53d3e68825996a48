//go:build !arm64

package kernel

// fma32NaN returns the result of an FMA with a NaN operand as amd64's
// VFMADD231PS gives it: the first NaN in the order a, b, c, made quiet,
// as Go's math.FMA gives it on float64 (VFMADD231SD, or a*b+c in software).
// Other architectures, whose kernels are the generic ones, follow the same
// rule. ok is false when no operand is a NaN.
func fma32NaN(a, b, c float32) (r float32, ok bool) {
	for _, x := range [3]float32{a, b, c} {
		if isNaN32(x) {
			return quiet32(x), true
		}
	}
	return 0, false
}
