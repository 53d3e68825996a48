package kernel

import "math"

// fma32NaN returns the result of an FMA with a NaN operand as arm64's FMLA
// and FMADD give it (FPProcessNaNs3, then FPMulAdd) with the operands in
// the roles Go's math.FMA(a, b, c) gives them (FMADD d, n=b, m=a, addend c):
// the first signalling NaN in the order c, b, a, made quiet; else the first
// quiet NaN in that order, except that a quiet NaN addend with an infinity
// times zero gives the default NaN. ok is false when no operand is a NaN.
func fma32NaN(a, b, c float32) (r float32, ok bool) {
	ops := [3]float32{c, b, a}
	for _, x := range ops {
		if isNaN32(x) && math.Float32bits(x)&(1<<22) == 0 {
			return quiet32(x), true
		}
	}
	if isNaN32(c) && (isInf32(a) && b == 0 || a == 0 && isInf32(b)) {
		return math.Float32frombits(0x7fc00000), true
	}
	for _, x := range ops {
		if isNaN32(x) {
			return x, true
		}
	}
	return 0, false
}

func isInf32(x float32) bool { return math.IsInf(float64(x), 0) }
