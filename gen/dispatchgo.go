package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/simdkit/elem/gen/registry"
)

// This file writes internal/kernel's implementation table (from the ISA
// rows) and, per architecture, the switches from each op's entry to its
// assembly kernels.

// archEmitter tells, for one architecture, whether an op has a vector form
// for element type t and which CPU features beyond its level's it needs.
type archEmitter func(o registry.Op, t registry.Type) (vector bool, features []string)

// archEmitters are the back ends' emitter tables, by GOARCH.
var archEmitters = map[string]archEmitter{
	"amd64": func(o registry.Op, t registry.Type) (bool, []string) {
		em, vector, _ := x86EmitterFor(o, t)
		return vector, em.features
	},
	"arm64": func(o registry.Op, t registry.Type) (bool, []string) {
		_, vector, _ := neonEmitterFor(o, t)
		return vector, nil
	},
}

// writeImpls writes impl_generated.go (the implementation constants and
// names) and, per architecture, what is available and preferred.
func writeImpls(dir string) error {
	g := newGoFile(filepath.Join(dir, "impl_generated.go"), "", "kernel")
	g.doc("The implementations: the generic Go kernels, then every assembly level of\nevery architecture (a build has those of its GOARCH).")
	g.p("const (")
	g.p("Generic Impl = iota // the portable Go kernels, everywhere")
	for _, isa := range registry.ISAs {
		g.p("%s // %s on %s", isa.Name, isa.Doc, isa.Arch)
	}
	g.p("numImpls")
	g.p(")")
	g.p("")
	names := []string{`"generic"`}
	for _, isa := range registry.ISAs {
		names = append(names, fmt.Sprintf("%q", isa.Env()))
	}
	g.p("var implNames = [numImpls]string{%s}", strings.Join(names, ", "))
	g.p("")
	var compute []string
	for _, o := range registry.Ops {
		if o.Compute && !o.Math {
			compute = append(compute, fmt.Sprintf("%q", o.Name))
		}
	}
	g.doc("computeOps names the ops of classCompute, whose speed is their arithmetic\nunit's rather than the memory traffic's, for descriptions of the dispatch.")
	g.p("var computeOps = []string{%s}", strings.Join(compute, ", "))
	for _, o := range registry.Ops {
		if o.FMAKind == "" {
			continue
		}
		var classes []string
		for _, kd := range o.Family.Kinds {
			class := "classCompute"
			if kd.Name == o.FMAKind {
				class = "classFMA"
			}
			classes = append(classes, kd.Const()+": "+class)
		}
		g.doc(fmt.Sprintf("%s is the class of %s's calls by kind: its kernel of kind %s on\nAVX-512 is a sequence of multiply-adds.", kindClasses(o), o.Name, o.FMAKind))
		g.p("var %s = [numKinds]opClass{%s}", kindClasses(o), strings.Join(classes, ", "))
	}
	if err := g.write(); err != nil {
		return err
	}
	for _, arch := range registry.Archs() {
		if err := writeArchImpls(dir, arch); err != nil {
			return err
		}
	}
	return writeNoAsm(dir)
}

// writeArchImpls writes impl_<arch>.go: Available, Default, HasStreaming.
func writeArchImpls(dir, arch string) error {
	isas := registry.ISAsOf(arch)
	g := newGoFile(filepath.Join(dir, "impl_"+arch+".go"), "!purego", "kernel", "golang.org/x/sys/cpu")
	g.doc("Available lists the implementations this CPU can run, Generic first and\nthen from the narrowest level to the widest: a level needs every CPU\nfeature of its instructions (x/sys/cpu also checks that the OS saves the\nregisters).")
	g.p("func Available() []Impl {")
	g.p("impls := []Impl{Generic}")
	for _, isa := range isas {
		g.p("if %s { impls = append(impls, %s) }", features(isa.Features), isa.Name)
	}
	g.p("return impls")
	g.p("}")
	g.p("")
	byRank := slices.Clone(isas)
	slices.SortStableFunc(byRank, func(a, b *registry.ISA) int { return b.Rank - a.Rank })
	var order []string
	for _, isa := range byRank {
		order = append(order, isa.Name)
	}
	g.doc(fmt.Sprintf("Default is the implementation used unless ELEM_IMPL or SetImplementation\nsays otherwise: the first available of %s, else Generic.", strings.Join(order, ", ")))
	g.p("func Default() Impl {")
	g.p("for _, i := range []Impl{%s} {", strings.Join(order, ", "))
	g.p("if Has(i) { return i }")
	g.p("}")
	g.p("return Generic")
	g.p("}")
	g.p("")
	stream := false
	for _, isa := range isas {
		stream = stream || isa.Stream
	}
	g.p("// HasStreaming reports whether kernels here have non-temporal-store forms.")
	g.p("const HasStreaming = %v", stream)
	if err := g.write(); err != nil {
		return err
	}
	return writeArchSwitch(dir, arch)
}

// writeArchSwitch writes dispatch_<arch>.go: every op's entry, which runs
// its kernel for the implementation in use, or the generic row loop when
// there is none (Generic, a type or level the op has no kernel for, or a
// CPU without the op's extra features). The entry is the op's one switch:
// callers that make the same call many times call it too.
func writeArchSwitch(dir, arch string) error {
	var imports []string
	for _, o := range registry.Ops {
		if len(vectorTypes(arch, o)) > 0 {
			if _, extra := archEmitters[arch](o, o.Types[0]); len(extra) > 0 {
				imports = []string{"golang.org/x/sys/cpu"}
			}
		}
	}
	g := newGoFile(filepath.Join(dir, "dispatch_"+arch+".go"), "!purego", "kernel", imports...)
	isas := registry.ISAsOf(arch)
	for _, o := range registry.Ops {
		f := o.Family
		types := vectorTypes(arch, o)
		entryDoc(g, o)
		g.p("func %s[T %s](k Kind, %s, stream bool) {", entryName(o), familyConstraint(f), blockParams(f))
		entryPrologue(g, o)
		if len(types) == 0 {
			g.p("// No vector form on %s: the generic row loop runs.", arch)
		} else {
			_, extra := archEmitters[arch](o, types[0])
			writeKernelSwitch(g, o, isas, types, extra)
		}
		g.p("%sGeneric(k, %s)", o.Name, blockArgs(f))
		g.p("}")
		g.p("")
		resolverHead(g, o)
		if len(types) > 0 {
			_, extra := archEmitters[arch](o, types[0])
			writeResolver(g, o, isas, types, extra)
		}
		g.p("return nil")
		g.p("}")
		g.p("")
		writeKernelTables(g, o, isas, types)
	}
	writeConvertEntry(g, arch)
	return g.write()
}

// resolverHead documents and opens an op's resolver: its kernel for a
// call of one shape, as a function of untyped pointers.
func resolverHead(g *goFile, o registry.Op) {
	f := o.Family
	g.doc(fmt.Sprintf("%sKernel returns the assembly kernel that %s would run for a call of\nkind k and m x n elements with the implementation in use, or nil where it\nwould run something else (the generic loop, the race detector's checks,\npieces of a large call): see %s.", o.Name, entryName(o), kernelType(f)))
	g.p("func %sKernel[T %s](k Kind, m, n int, stream bool) %s {", o.Name, familyConstraint(f), kernelType(f))
}

// kernelType is the function type of a family's resolved kernels.
func kernelType(f *registry.Family) string { return fmt.Sprintf("Kernel%d", len(slots(f))) }

// writeResolver writes the body of an op's resolver: the kernel of the
// entry's key from a table per element type (see writeKernelTables), which
// holds what the entry's switch calls for each key.
func writeResolver(g *goFile, o registry.Op, isas []*registry.ISA, types []registry.Type, extra []string) {
	f := o.Family
	g.p("if raceEnabled || m*n > chunkElems[T]() { return nil }")
	if len(extra) > 0 {
		g.p("if !(%s) { return nil }", features(extra))
	}
	g.p("switch typeOf[T]() {")
	for _, t := range types {
		g.p("case %s:", typeConst(t))
		g.p("return kernelAt[%s](%s[:], kernelKey(k, implFor(%s, m*n*%d*kindArrays[k], stream), stream))",
			kernelType(f), kernelTable(o, o.KernelType(t)), opClass(o), t.Size())
	}
	g.p("}")
}

// writeKernelTables writes, for each element type whose kernels op o has
// (the signed type's serve the unsigned ones of a SignBlind op), the table
// of those kernels by the key of the entry's switch.
func writeKernelTables(g *goFile, o registry.Op, isas []*registry.ISA, types []registry.Type) {
	for _, t := range types {
		if o.KernelType(t) != t {
			continue
		}
		g.p("// %s are %s's %s kernels by kernelKey, as %s's switch calls them.", kernelTable(o, t), o.Name, t.GoName, entryName(o))
		g.p("var %s = [...]%s{", kernelTable(o, t), registry.Signature(o.Family, t))
		for _, kd := range o.Family.Kinds {
			for _, isa := range isas {
				name := registry.KernelName(o, kd, t, isa)
				g.p("%d: %s,", kernelKey(kd, isa, false), name)
				if hasStreamTwin(o, isa) {
					g.p("%d: %s%s,", kernelKey(kd, isa, true), name, streamSuffix)
				} else {
					g.p("%d: %s,", kernelKey(kd, isa, true), name)
				}
			}
		}
		g.p("}")
		g.p("")
	}
}

// kernelTable names op o's table of kernels on t: "addKernelsF32".
func kernelTable(o registry.Op, t registry.Type) string { return o.Name + "Kernels" + t.Short }

// opClass is the implFor class of op o, a Go expression of the kind k.
func opClass(o registry.Op) string {
	switch {
	case o.Math:
		return "classFMA"
	case o.FMAKind != "":
		return kindClasses(o) + "[k]"
	case o.Compute:
		return "classCompute"
	}
	return "classMemory"
}

// kindClasses names the table of op o's classes by kind: "divClasses".
func kindClasses(o registry.Op) string { return o.Name + "Classes" }

// convertKernels lists the conversions with kernels on arch, with the
// implementations that have them.
var convertKernels = map[string]func(registry.Conversion, *registry.ISA) bool{
	"amd64": func(c registry.Conversion, isa *registry.ISA) bool {
		conv, ok := x86Conversions[c.Key()]
		return ok && (!conv.avx512Only || isa.Vector == 64)
	},
	"arm64": func(registry.Conversion, *registry.ISA) bool { return false },
	"":      func(registry.Conversion, *registry.ISA) bool { return false },
}

// writeConvertEntry writes Convert, the entry of the conversions: a switch
// on the pair of element types (folded at compile time) to the kernels
// arch has, else the generic loop. arch "" writes the entry of builds
// without assembly.
func writeConvertEntry(g *goFile, arch string) {
	g.doc("Convert computes dst[r*ldd+j] = D(src[r*ldsrc+j]) for r < m, j < n with the\nimplementation in use (see convertGeneric for the rule of float to integer\nconversions): the trusted entry, which checks nothing.")
	g.p("func Convert[D, S Number](m, n int, dst []D, ldd int, src []S, ldsrc int, stream bool) {")
	g.p("if raceEnabled { raceConvert(m, n, dst, ldd, src, ldsrc) }")
	g.p("if m*n > chunkElems[D]() {")
	g.p("convertChunked(m, n, dst, ldd, src, ldsrc, stream)")
	g.p("return")
	g.p("}")
	var cases []string
	for _, c := range registry.Conversions() {
		var isas []*registry.ISA
		for _, isa := range registry.ISAsOf(arch) {
			if convertKernels[arch](c, isa) {
				isas = append(isas, isa)
			}
		}
		if len(isas) == 0 {
			continue
		}
		var b strings.Builder
		fmt.Fprintf(&b, "case %s<<4 | %s:\n", typeConst(c.From), typeConst(c.To))
		fmt.Fprintf(&b, "pdst, psrc := ptr[%s](dst), ptr[%s](src)\n", c.To.GoName, c.From.GoName)
		if len(isas) == len(registry.ISAsOf(arch)) {
			fmt.Fprintf(&b, "switch implFor(classMemory, m*n*%d, stream) {\n", c.From.Size()+c.To.Size())
		} else {
			var has []string
			for _, isa := range isas {
				has = append(has, "1<<"+isa.Name)
			}
			fmt.Fprintf(&b, "switch implAmong(classMemory, m*n*%d, stream, %s) {\n", c.From.Size()+c.To.Size(), strings.Join(has, "|"))
		}
		for _, isa := range isas {
			name := c.KernelName(isa)
			fmt.Fprintf(&b, "case %s:\n", isa.Name)
			if isa.Stream && c.To.Size() >= c.From.Size() {
				fmt.Fprintf(&b, "if stream { %s%s(m, n, pdst, ldd, psrc, ldsrc) } else { %s(m, n, pdst, ldd, psrc, ldsrc) }\n", name, streamSuffix, name)
			} else {
				fmt.Fprintf(&b, "%s(m, n, pdst, ldd, psrc, ldsrc)\n", name)
			}
			b.WriteString("return\n")
		}
		b.WriteString("}")
		cases = append(cases, b.String())
	}
	if len(cases) > 0 {
		g.p("switch typeOf[S]()<<4 | typeOf[D]() {")
		for _, c := range cases {
			g.p("%s", c)
		}
		g.p("}")
	}
	g.p("convertGeneric(m, n, dst, ldd, src, ldsrc)")
	g.p("}")
	g.p("")
}

// vectorTypes lists the element types op o has kernels for on arch.
func vectorTypes(arch string, o registry.Op) []registry.Type {
	var ts []registry.Type
	for _, t := range registry.Types {
		if vector, _ := archEmitters[arch](o, t); vector && o.Supports(t) {
			ts = append(ts, t)
		}
	}
	return ts
}

// entryDoc documents an op's entry.
func entryDoc(g *goFile, o registry.Op) {
	g.doc(fmt.Sprintf("%s computes the m x n block of kind k of %s with the implementation in\nuse, writing with non-temporal stores when stream is set and the kernel has\nthem, left unordered until the caller's Fence: the trusted entry, which\nchecks nothing. A block of more than\nchunkBytes of output runs as pieces, so that the goroutine can be preempted\nbetween them.", entryName(o), o.Name))
}

// entryPrologue writes the start of an op's entry: race annotations and
// the preemption split.
func entryPrologue(g *goFile, o registry.Op) {
	f := o.Family
	g.p("if raceEnabled { race%s(k, %s) }", opValuedEntry(f), blockArgs(f))
	g.p("if m*n > chunkElems[T]() {")
	g.p("%sChunked(k, %s, stream)", o.Name, blockArgs(f))
	g.p("return")
	g.p("}")
}

// writeKernelSwitch writes the switch from an op's entry to its kernels:
// on the element type (folded at compile time), then on one key of the
// kind, the implementation that implFor picks for the op's class, the bytes
// the call reads and writes and its store mode, and the store mode (see
// kernelKey), a case per kernel. A kernel call returns; anything else falls
// through to the generic row loop.
func writeKernelSwitch(g *goFile, o registry.Op, isas []*registry.ISA, types []registry.Type, extra []string) {
	f := o.Family
	if len(extra) > 0 {
		g.p("if %s {", features(extra))
	}
	class := opClass(o)
	g.p("switch typeOf[T]() {")
	for _, t := range types {
		g.p("case %s:", typeConst(t))
		kt := o.KernelType(t)
		var vars, ptrs []string
		for _, s := range slots(f) {
			vars = append(vars, "p"+s.name)
			ptrs = append(ptrs, fmt.Sprintf("ptr[%s](%s)", goElem(s.typ, kt), s.name))
		}
		g.p("%s := %s", strings.Join(vars, ", "), strings.Join(ptrs, ", "))
		g.p("switch kernelKey(k, implFor(%s, m*n*%d*kindArrays[k], stream), stream) {", class, t.Size())
		for _, kd := range f.Kinds {
			for _, isa := range isas {
				name := registry.KernelName(o, kd, kt, isa)
				key := func(stream bool) int { return kernelKey(kd, isa, stream) }
				args := kernelArgs(f)
				if hasStreamTwin(o, isa) {
					g.p("case %d: %s(%s)", key(false), name, args)
					g.p("case %d: %s%s(%s)", key(true), name, streamSuffix, args)
				} else {
					g.p("case %d, %d: %s(%s)", key(false), key(true), name, args)
				}
			}
		}
		g.p("default:")
		g.p("%sGeneric(k, %s)", o.Name, blockArgs(f))
		g.p("}")
		g.p("return")
	}
	g.p("}")
	if len(extra) > 0 {
		g.p("}")
	}
}

// kernelKey is internal/kernel's kernelKey of a kernel: its kind, its
// implementation and its store mode in one number.
func kernelKey(kd registry.Kind, isa *registry.ISA, stream bool) int {
	key := kindIndex(kd)<<3 | (slices.Index(registry.ISAs, isa)+1)<<1
	if stream {
		key |= 1
	}
	return key
}

// kindIndex is kind kd's value in internal/kernel.
func kindIndex(kd registry.Kind) int {
	return slices.IndexFunc(allKinds(), func(k registry.Kind) bool { return k.Name == kd.Name })
}

// hasStreamTwin reports whether op o has kernels writing with non-temporal
// stores on isa. A math op has none: at half a nanosecond an element or
// more it is far from memory speed, where the stores' kind would tell, and
// a twin would double the largest kernels there are.
func hasStreamTwin(o registry.Op, isa *registry.ISA) bool {
	return o.Family.Stream && isa.Stream && !o.Math
}

// kindArrays counts the arrays of n values a row of kind kd reads or
// writes: dst and each vector input. A call's bytes are m*n elements
// times that (a scalar per row, and a row repeated on every row of a 2-D
// call, are counted as if they were full rows: they are both rare and
// small).
func kindArrays(kd registry.Kind) int {
	n := 1
	for _, v := range kd.Vector {
		if v {
			n++
		}
	}
	return n
}

// writeNoAsm writes dispatch_noasm.go for builds without assembly.
func writeNoAsm(dir string) error {
	g := newGoFile(filepath.Join(dir, "dispatch_noasm.go"), noAsmConstraint(), "kernel")
	g.p("// Available lists what this build can run: without assembly, Generic alone.")
	g.p("func Available() []Impl { return []Impl{Generic} }")
	g.p("")
	g.p("// Default is Generic, the only implementation without assembly.")
	g.p("func Default() Impl { return Generic }")
	g.p("")
	g.p("// HasStreaming reports whether kernels here have non-temporal-store forms.")
	g.p("const HasStreaming = false")
	g.p("")
	for _, o := range registry.Ops {
		entryDoc(g, o)
		g.p("func %s[T %s](k Kind, %s, stream bool) {", entryName(o), familyConstraint(o.Family), blockParams(o.Family))
		entryPrologue(g, o)
		g.p("%sGeneric(k, %s)", o.Name, blockArgs(o.Family))
		g.p("}")
		g.p("")
		resolverHead(g, o)
		g.p("return nil")
		g.p("}")
		g.p("")
	}
	writeConvertEntry(g, "")
	return g.write()
}

// noAsmConstraint selects the builds without assembly.
func noAsmConstraint() string {
	return "purego || !(" + strings.Join(registry.Archs(), " || ") + ")"
}

// kernelArgs are the stub arguments after the pointers were taken.
func kernelArgs(f *registry.Family) string {
	as := []string{"m, n"}
	for _, s := range slots(f) {
		as = append(as, "p"+s.name+", "+s.ld)
	}
	return strings.Join(as, ", ")
}

// goElem resolves an operand type for element type t.
func goElem(typ string, t registry.Type) string {
	if typ == "T" {
		return t.GoName
	}
	return typ
}

// typeConst is internal/kernel's constant for element type t: "tFloat32".
func typeConst(t registry.Type) string { return "t" + strings.ToUpper(t.GoName[:1]) + t.GoName[1:] }

// writeTypes writes types_generated.go: a constant per element type and
// typeOf, which the compiler folds to one constant per instantiation, so
// that the switches on it vanish.
func writeTypes(dir string) error {
	g := newGoFile(filepath.Join(dir, "types_generated.go"), "", "kernel", "unsafe")
	g.p("// elemType identifies the underlying type of an element type.")
	g.p("type elemType uint8")
	g.p("")
	g.p("const (")
	for i, t := range registry.Types {
		if i == 0 {
			g.p("%s elemType = iota + 1 // from 1, so that a pair of types packs into one nonzero key", typeConst(t))
		} else {
			g.p("%s", typeConst(t))
		}
	}
	g.p(")")
	g.p("")
	g.doc("typeOf returns T's element type: from its size, whether it has fractions\n(1/2 is not 0) and whether it is signed (0-1 is below 0), all constants for\neach instantiation. Its branches return constants, which the compiler\nfolds inside every instantiation, so that the switches on it vanish and a\nprogram links the kernels of the types it uses only (a lookup in a\nconstant table is not folded inside a generic function's shape instance:\na program calling only Add on float32 linked every type's kernels).")
	g.p("func typeOf[T Number]() elemType {")
	g.p("var zero, one, two T = 0, 1, 2")
	g.p("float, signed := one/two != 0, zero-one < zero")
	g.p("switch unsafe.Sizeof(zero) {")
	for _, size := range []int{1, 2, 4, 8} {
		var fl, si, un string
		for _, t := range registry.Types {
			switch {
			case t.Size() != size:
			case t.Float:
				fl = typeConst(t)
			case t.Signed:
				si = typeConst(t)
			default:
				un = typeConst(t)
			}
		}
		g.p("case %d:", size)
		if fl != "" {
			g.p("if float { return %s }", fl)
		}
		g.p("if signed { return %s }", si)
		g.p("return %s", un)
	}
	g.p("}")
	g.p("panic(\"kernel: no element type of this size\")")
	g.p("}")
	g.p("")
	g.p("// isFloat32 reports whether T is float32-based.")
	g.p("func isFloat32[T Number]() bool { return typeOf[T]() == %s }", typeConst(registry.Float32))
	return g.write()
}
