//go:build !amd64 || purego

package kernel

// splitFoldKernel has no kernel to run here: SplitFold runs the loop.
func splitFoldKernel[T Number, D any](dst []D, src []T, cols, op int) int { return 0 }

// splitFoldRuns reports that no split-fold kernel runs here.
func splitFoldRuns[T Number](cols int) bool { return false }
