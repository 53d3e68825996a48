package elem_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// fencedByCaller are the functions that may pass a stream flag to a kernel
// entry without a fence of their own, with the callers that fence for them:
// they run one block of work made of many calls.
var fencedByCaller = map[string]string{
	"broadcast.exec.block":       "exec.run, and runParallel's parts",
	"broadcast.exec.tiled":       "exec.run, and runParallel's parts",
	"broadcast.applyView":        "blockWalk.next, whose close fences when the walk ends",
	"broadcast.ApplyUnaryView":   "blockWalk.next, whose close fences when the walk ends",
	"broadcast.ApplyTernaryView": "blockWalk.next, whose close fences when the walk ends",
	"broadcast.SelectView":       "blockWalk.next, whose close fences when the walk ends",
	"expr.convPart.run":          "Plan.step's callers: Plan.run, and RunParallel's parts",
	"expr.Plan.step":             "Plan.run, and RunParallel's parts",
	"expr.Plan.one":              "Plan.run",
	"expr.Plan.fuseCall":         "Plan.run, and RunParallel's parts",
}

// TestStreamingCallsFence checks the contract of the kernels' streaming
// stores, which no test of values can see: every function outside the
// kernel package that may pass stream = true to a kernel entry calls
// kernel.Fence or kernel.FenceAfter itself, or is one of fencedByCaller.
// A call through a struct field of function type whose last parameter is
// stream bool (a kernel entry resolved once, as kernel.BinaryEntry gives
// it), or of a resolved kernel's type (kernel.Kernel3, whose store mode
// was chosen when it was resolved), counts as a call of an entry; the
// resolvers, which return kernels and write nothing, do not. A missing
// fence leaves non-temporal stores unordered when the result reaches
// another goroutine.
func TestStreamingCallsFence(t *testing.T) {
	entries := streamingEntries(t)
	require.Contains(t, entries, "Add")
	require.Contains(t, entries, "Binary")
	files := parseFiles(t, libraryFiles(t, "."))
	fields := streamingFields(files)
	require.Contains(t, fields["expr"], "binary", "the scan of entry fields is broken")
	require.Contains(t, fields["expr"], "k3", "the scan of resolved kernels' fields is broken")
	var found, unfenced []string
	seen := map[string]bool{}
	for file, f := range files {
		pkg := packageOf(file)
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			streams, fences := false, false
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				name, ok := kernelCall(call)
				if sel, isSel := call.Fun.(*ast.SelectorExpr); !ok && isSel && fields[pkg][sel.Sel.Name] && len(call.Args) > 0 {
					name, ok = "Binary", true // an entry through a field
				}
				switch {
				case !ok:
				case name == "Fence" || name == "FenceAfter":
					fences = true
				case entries[name] && !isFalse(call.Args[len(call.Args)-1]):
					streams = true
				}
				return true
			})
			if !streams {
				continue
			}
			key := pkg + "." + funcName(fn)
			found = append(found, key)
			seen[key] = true
			if !fences && fencedByCaller[key] == "" {
				unfenced = append(unfenced, key+" ("+file+")")
			}
		}
	}
	require.NotEmpty(t, found, "no streaming call found: the scan is broken")
	require.Empty(t, unfenced, "functions that may stream without kernel.Fence or kernel.FenceAfter")
	for key := range fencedByCaller {
		require.True(t, seen[key], "fencedByCaller lists %s, which makes no streaming call: remove it", key)
	}
}

// packageOf is the name of the package of a library file.
func packageOf(file string) string {
	if pkg := filepath.Base(filepath.Dir(file)); pkg != "." {
		return pkg
	}
	return "elem"
}

// parseFiles parses each of files, by path.
func parseFiles(t *testing.T, files []string) map[string]*ast.File {
	parsed := map[string]*ast.File{}
	for _, file := range files {
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
		require.NoError(t, err)
		parsed[file] = f
	}
	return parsed
}

// streamingFields are the names of the struct fields that hold kernel
// entries (isEntryType), by package.
func streamingFields(files map[string]*ast.File) map[string]map[string]bool {
	fields := map[string]map[string]bool{}
	for file, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			st, ok := n.(*ast.StructType)
			if !ok {
				return true
			}
			for _, fd := range st.Fields.List {
				if !isEntryType(fd.Type) {
					continue
				}
				pkg := packageOf(file)
				if fields[pkg] == nil {
					fields[pkg] = map[string]bool{}
				}
				for _, name := range fd.Names {
					fields[pkg][name.Name] = true
				}
			}
			return true
		})
	}
	return fields
}

// isEntryType reports whether a field of type typ holds a kernel entry: a
// function with no results whose last parameter is stream bool, or a
// resolved kernel (kernel.Kernel2, 3, 4).
func isEntryType(typ ast.Expr) bool {
	switch x := typ.(type) {
	case *ast.FuncType:
		return x.Results == nil && lastIsStream(x.Params.List)
	case *ast.SelectorExpr:
		pkg, ok := x.X.(*ast.Ident)
		return ok && pkg.Name == "kernel" && strings.HasPrefix(x.Sel.Name, "Kernel")
	}
	return false
}

// lastIsStream reports whether the last of parameters ps is stream bool.
func lastIsStream(ps []*ast.Field) bool {
	if len(ps) == 0 {
		return false
	}
	last := ps[len(ps)-1]
	id, ok := last.Type.(*ast.Ident)
	return ok && id.Name == "bool" && len(last.Names) > 0 && last.Names[len(last.Names)-1].Name == "stream"
}

// streamingEntries are the kernel package's functions with no results
// whose last parameter is stream bool.
func streamingEntries(t *testing.T) map[string]bool {
	entries := map[string]bool{}
	for _, file := range libraryFiles(t, filepath.Join("internal", "kernel")) {
		if filepath.Dir(file) != filepath.Join("internal", "kernel") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
		require.NoError(t, err)
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || !fn.Name.IsExported() || fn.Recv != nil {
				continue
			}
			if fn.Type.Results == nil && lastIsStream(fn.Type.Params.List) {
				entries[fn.Name.Name] = true
			}
		}
	}
	return entries
}

// libraryFiles lists the library's non-test Go files under dir, without
// the generator, the CLI and the examples (modules of their own).
func libraryFiles(t *testing.T, dir string) []string {
	var files []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "gen", "tools", "examples", "testdata":
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
			files = append(files, path)
		}
		return nil
	})
	require.NoError(t, err)
	return files
}

// kernelCall returns the name of a call kernel.Name(...).
func kernelCall(call *ast.CallExpr) (string, bool) {
	fun := call.Fun
	if ix, ok := fun.(*ast.IndexExpr); ok { // kernel.Name[T](...)
		fun = ix.X
	}
	sel, ok := fun.(*ast.SelectorExpr)
	if !ok {
		return "", false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return sel.Sel.Name, ok && pkg.Name == "kernel"
}

// isFalse reports whether e is the constant false.
func isFalse(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == "false"
}

// funcName is Name, or Recv.Name for a method (type parameters dropped).
func funcName(fn *ast.FuncDecl) string {
	if fn.Recv == nil {
		return fn.Name.Name
	}
	typ := fn.Recv.List[0].Type
	if star, ok := typ.(*ast.StarExpr); ok {
		typ = star.X
	}
	switch x := typ.(type) {
	case *ast.IndexExpr:
		typ = x.X
	case *ast.IndexListExpr:
		typ = x.X
	}
	if id, ok := typ.(*ast.Ident); ok {
		return id.Name + "." + fn.Name.Name
	}
	return fn.Name.Name
}
