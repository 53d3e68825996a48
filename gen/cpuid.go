package main

import (
	"os"
	"path/filepath"

	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/reg"
)

// cpuinfoDir is internal/cpuinfo, relative to the repository root.
const cpuinfoDir = "internal/cpuinfo"

// generateCPUID writes internal/cpuinfo's CPUID instruction: vendor, family,
// model and cache sizes come from it on amd64, and x/sys/cpu keeps its own
// CPUID to itself.
func generateCPUID(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	c := build.NewContext()
	c.ConstraintExpr("!purego")
	c.Function("cpuid")
	c.Doc("cpuid executes CPUID for the given leaf (EAX) and subleaf (ECX).")
	c.Attributes(attr.NOSPLIT)
	c.SignatureExpr("func(leaf, subleaf uint32) (eax, ebx, ecx, edx uint32)")
	c.Load(c.Param("leaf"), reg.EAX)
	c.Load(c.Param("subleaf"), reg.ECX)
	c.CPUID()
	for _, out := range []struct {
		r    reg.Register
		name string
	}{{reg.EAX, "eax"}, {reg.EBX, "ebx"}, {reg.ECX, "ecx"}, {reg.EDX, "edx"}} {
		c.Store(out.r, c.Return(out.name))
	}
	c.RET()
	file, err := compileAvo(c)
	if err != nil {
		return err
	}
	return writeAvoFile(file, "cpuinfo", filepath.Join(dir, "cpuid"))
}

// generateFence writes internal/kernel's store fence. The streaming kernels
// leave their non-temporal stores unordered, so that a run of many
// streaming calls (a broadcast plan, a fused expression's blocks) waits
// for them once, at its end, not at the end of every call.
func generateFence(dir string) error {
	c := build.NewContext()
	c.ConstraintExpr("!purego")
	c.Function("storeFence")
	c.Doc("storeFence orders every earlier store, non-temporal ones included, before any later store (SFENCE).")
	c.Attributes(attr.NOSPLIT)
	c.SignatureExpr("func()")
	c.SFENCE()
	c.RET()
	file, err := compileAvo(c)
	if err != nil {
		return err
	}
	return writeAvoFile(file, "kernel", filepath.Join(dir, "fence"))
}
