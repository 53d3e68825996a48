package main

import (
	"runtime"

	"errors"
	"fmt"
	"golang.org/x/sync/errgroup"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/ir"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/pass"
	"github.com/mmcloughlin/avo/printer"

	"github.com/simdkit/elem/gen/registry"
)

// generator names the command in the headers of generated files.
const generator = "go run ./gen"

// x86Features maps avo's ISA extension names to x/sys/cpu feature checks.
// Every amd64 CPU has the baseline ones (SSE2, CMOV, SFENCE), which map to "".
var x86Features = map[string]string{
	"SSE": "", "SSE2": "", "CMOV": "", "MMX+": "",
	"AVX": "cpu.X86.HasAVX", "AVX2": "cpu.X86.HasAVX2", "FMA3": "cpu.X86.HasFMA",
	"SSE4.1": "cpu.X86.HasSSE41", "BMI2": "cpu.X86.HasBMI2",
	"AVX512F": "cpu.X86.HasAVX512F", "AVX512BW": "cpu.X86.HasAVX512BW",
	"AVX512DQ": "cpu.X86.HasAVX512DQ", "AVX512VL": "cpu.X86.HasAVX512VL",
	"F16C": "cpu.X86.HasF16C", "AVX512VBMI": "cpu.X86.HasAVX512VBMI",
}

// generateAMD64 writes the kernels of family f for every amd64 level into
// dir/<family>_amd64.s and the Go stubs into dir/<family>_amd64.go.
func generateAMD64(dir string, f *registry.Family) error {
	c := build.NewContext()
	c.ConstraintExpr("!purego")
	addTailMask(c)
	if f.Out == "bool" {
		addBitBytes(c)
	}
	needs := map[string][]string{} // kernel name: the features it may use
	for _, isa := range x86ISAs() {
		for _, t := range registry.Types {
			for _, o := range registry.OpsOf(f) {
				if !o.Supports(t) || o.KernelType(t) != t {
					continue
				}
				em, vector, err := x86EmitterFor(o, t)
				if err != nil {
					return err
				}
				if !vector {
					continue
				}
				for _, kd := range f.Kinds {
					for _, stream := range streamModes(o, isa.ISA) {
						k := &x86Kernel{Context: c, isa: isa, op: o, em: em, kind: kd, t: t, stream: stream}
						k.name = registry.KernelName(o, kd, t, isa.ISA)
						if stream {
							k.name += streamSuffix
						}
						k.generate()
						needs[k.name] = append(slices.Clone(isa.Features), em.features...)
					}
				}
			}
		}
	}
	return writeAvo(c, dir, f.Name, needs)
}

// writeAvo compiles the functions of c, checks that every instruction's
// ISA extension is among the features its kernel's dispatch checks
// (needs, by function name), and writes dir/<base>_amd64.s and its stubs.
func writeAvo(c *build.Context, dir, base string, needs map[string][]string) error {
	file, err := compileAvo(c)
	if err != nil {
		return err
	}
	if err := checkFeatures(file, needs); err != nil {
		return err
	}
	return writeAvoFile(file, "kernel", filepath.Join(dir, base))
}

// compileAvo builds and compiles an avo file (register allocation and the
// other passes); a build error lists every problem avo found.
func compileAvo(c *build.Context) (*ir.File, error) {
	file, err := c.Result()
	var list build.ErrorList
	if errors.As(err, &list) {
		errs := make([]error, len(list))
		for i, e := range list {
			errs[i] = e
		}
		return nil, errors.Join(errs...)
	}
	if err != nil {
		return nil, err
	}
	return file, compileFunctions(file)
}

// compileFunctions is avo's pass.Compile with the passes of one function
// run for several functions at once (register allocation is most of the
// generator's time, and the fused kernels' functions are large).
func compileFunctions(file *ir.File) error {
	if err := pass.Verify.Execute(file); err != nil {
		return err
	}
	local := pass.Concat(
		pass.FunctionPass(pass.PruneJumpToFollowingLabel),
		pass.FunctionPass(pass.PruneDanglingLabels),
		pass.FunctionPass(pass.LabelTarget),
		pass.FunctionPass(pass.CFG),
		pass.InstructionPass(pass.ZeroExtend32BitOutputs),
		pass.FunctionPass(pass.Liveness),
		pass.FunctionPass(pass.AllocateRegisters),
		pass.FunctionPass(pass.BindRegisters),
		pass.FunctionPass(pass.VerifyAllocation),
		pass.FunctionPass(pass.EnsureBasePointerCalleeSaved),
		pass.FunctionPass(pass.PruneSelfMoves),
		pass.FunctionPass(pass.RequiredISAExtensions),
	)
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for _, fn := range file.Functions() {
		g.Go(func() error {
			if err := local.Execute(&ir.File{Sections: []ir.Section{fn}}); err != nil {
				return fmt.Errorf("%s: %w", fn.Name, err)
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	return pass.IncludeTextFlagHeader(file)
}

// checkFeatures refuses a kernel with an instruction whose ISA extension
// (as avo computes it) the dispatch does not check: needs lists, by kernel,
// the features its level and op check.
func checkFeatures(file *ir.File, needs map[string][]string) error {
	for _, fn := range file.Functions() {
		for _, ext := range fn.ISA {
			feature, known := x86Features[ext]
			if !known {
				return fmt.Errorf("%s: avo says it requires %s, which no dispatch check covers", fn.Name, ext)
			}
			if feature != "" && !slices.Contains(needs[fn.Name], feature) {
				return fmt.Errorf("%s requires %s, which its level and op do not check (%v)", fn.Name, ext, needs[fn.Name])
			}
		}
	}
	return nil
}

// writeAvoFile prints an avo file of package pkg, with our header, as the
// assembly base_amd64.s and its Go stubs base_amd64.go.
func writeAvoFile(file *ir.File, pkg, base string) error {
	cfg := printer.Config{Name: generator, Pkg: pkg}
	for _, out := range []struct {
		suffix string
		p      printer.Printer
	}{{"_amd64.s", printer.NewGoAsm(cfg)}, {"_amd64.go", printer.NewStubs(cfg)}} {
		src, err := out.p.Print(file)
		if err != nil {
			return err
		}
		if err := os.WriteFile(base+out.suffix, src, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// addTailMask adds the opmask table of the AVX-512 tails to c's file and
// points x86TailMask at it.
func addTailMask(c *build.Context) {
	x86TailMask = c.StaticGlobal("tailmask")
	c.DataAttributes(attr.RODATA | attr.NOPTR)
	for n := 0; n <= 64; n++ {
		c.AddDatum(8*n, U64(uint64(1)<<n-1))
	}
}

// streamModes are the store modes of op o's kernels on isa: ordinary, and
// non-temporal where it has a twin that writes so.
func streamModes(o registry.Op, isa *registry.ISA) []bool {
	if hasStreamTwin(o, isa) {
		return []bool{false, true}
	}
	return []bool{false}
}

// features joins feature checks into one Go condition.
func features(fs []string) string { return strings.Join(fs, " && ") }
