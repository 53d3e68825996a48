//go:build !amd64 || purego

package kernel

// splitFoldKernel has no kernel to run here: SplitFold runs the loop.
func splitFoldKernel[T Number](dst, src []T, cols, op int) int { return 0 }
