//go:build !(amd64 || arm64) || purego

package kernel

// mulComplexKernel has no kernel to run here: every product is taken on
// its own.
func mulComplexKernel[C complex64 | complex128](_, _, _ []C, _ bool) int { return 0 }

// DotComplex has no kernel here: the caller multiplies and sums.
func DotComplex[F float32 | float64, C complex64 | complex128](_ []F, _, _ []C, _ bool) int { return 0 }

// magnitudeKernel has no kernel here.
func magnitudeKernel([]float32, []complex64) (done, group int) { return 0, 0 }
