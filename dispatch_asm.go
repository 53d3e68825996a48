//go:build !purego && (amd64 || arm64)

package elem

import "unsafe"

// ptr32 and ptr64 give the assembly the first element of s. An empty slice
// gives its (possibly nil) data pointer, which a kernel with no work never reads.
func ptr32[T Float](s []T) *float32 { return (*float32)(unsafe.Pointer(unsafe.SliceData(s))) }
func ptr64[T Float](s []T) *float64 { return (*float64)(unsafe.Pointer(unsafe.SliceData(s))) }
