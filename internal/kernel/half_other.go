//go:build !(amd64 || arm64) || purego

package kernel

// narrowHalfKernel has no kernel to run here: NarrowHalf converts every
// value on its own.
func narrowHalfKernel([]uint16, []float32, bool, bool) int { return 0 }

// widenHalfKernel has no kernel to run here either.
func widenHalfKernel([]float32, []uint16, bool, bool) int { return 0 }

// HalfDot has no fused kernel here: the caller widens and uses Sum's and
// Dot's lane kernels.
func HalfDot([]float32, []uint16, []uint16, []float32, bool) int { return 0 }
