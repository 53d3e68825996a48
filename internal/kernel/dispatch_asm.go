//go:build !purego && (amd64 || arm64)

package kernel

import "unsafe"

// ptr gives the assembly the first element of s as an *E, E being T's
// underlying type. An empty slice gives its (possibly nil) data pointer,
// which a kernel with no work never reads.
func ptr[E, T any](s []T) *E { return (*E)(unsafe.Pointer(unsafe.SliceData(s))) }

// kernelKey is the key of an entry's switch to its kernels: the kind, the
// implementation and the store mode of a call in one small number, so that
// one flat switch (a jump table) finds the kernel. The generator computes
// the same keys for the cases.
func kernelKey[K ~uint8](k K, i Impl, stream bool) uint {
	key := uint(k)<<3 | uint(i)<<1
	if stream {
		key |= 1
	}
	return key
}
