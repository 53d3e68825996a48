//go:build !amd64 || purego

package kernel

// argColumnsKernel has no kernel to run here.
func argColumnsKernel[T Number, I int32 | int64](best []T, at []I, x []T, ld, lines, first int, least bool) bool {
	return false
}
