//go:build purego || !(amd64 || arm64)

package elem

// availableLevels: without assembly only the generic kernels run.
func availableLevels() []level { return []level{levelGeneric} }

func defaultLevel() level { return levelGeneric }

const hasStreaming = false

func runKernel[T Float](k kind, op Op, m, n int, dst []T, ldd int, a []T, lda int, b []T, ldb int, _ bool) {
	runGeneric(k, op, m, n, dst, ldd, a, lda, b, ldb)
}
