//go:build !purego && (amd64 || arm64)

package kernel

import "unsafe"

// ptr gives the assembly the first element of s as an *E, E being T's
// underlying type. An empty slice gives its (possibly nil) data pointer,
// which a kernel with no work never reads.
func ptr[E, T any](s []T) *E { return (*E)(unsafe.Pointer(unsafe.SliceData(s))) }
