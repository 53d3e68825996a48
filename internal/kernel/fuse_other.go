//go:build !amd64 || purego

package kernel

// fuseAsm says that this build has no fused kernels: there are some only
// on amd64.
const fuseAsm = false

// fuseVector is 0: no implementation here has fused kernels.
func fuseVector(Impl) int { return 0 }

// fuseRun is never called here: FuseImpl reports no fused kernels.
func fuseRun(Impl, int, []uint64, []uintptr, int, int, int, int) {
	panic("kernel: no fused kernels on this architecture")
}
