package pgparse

// The host module "wasix_32v1" that the parser's WebAssembly imports. It is
// adapted from github.com/wasilibs/go-pgquery's internal/wasix32v1 (MIT
// License, Copyright (c) wasilibs authors), which cannot be imported from
// here. PostgreSQL reports errors with setjmp/longjmp (PG_TRY, ereport);
// the module emulates them with stack_checkpoint and stack_restore over
// wazero's snapshots, copying the C stack (which lives in linear memory).
//
// One change: the C stack's top comes from the call's own state, not from
// the module's __heap_base, because this package gives every call a larger
// stack of its own (see instance.call).

import (
	"context"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
)

const wasixModule = "wasix_32v1"

// instantiateWasix adds the host module to rt.
func instantiateWasix(ctx context.Context, rt wazero.Runtime) error {
	const i32, i64 = api.ValueTypeI32, api.ValueTypeI64
	b := rt.NewHostModuleBuilder(wasixModule)
	fn := func(name string, f api.GoModuleFunc, params, results []api.ValueType) {
		b.NewFunctionBuilder().WithGoModuleFunction(f, params, results).Export(name)
	}
	// The parser runs one thread and raises no signals: the thread and
	// futex functions are never called.
	never := func(name string) api.GoModuleFunc {
		return func(context.Context, api.Module, []uint64) { panic("pgparse: the parser called " + name) }
	}
	fn("callback_signal", never("callback_signal"), []api.ValueType{i32, i32}, nil)
	fn("futex_wait", never("futex_wait"), []api.ValueType{i32, i32, i32, i32}, []api.ValueType{i32})
	fn("futex_wake", never("futex_wake"), []api.ValueType{i32, i32}, []api.ValueType{i32})
	fn("futex_wake_all", never("futex_wake_all"), []api.ValueType{i32, i32}, []api.ValueType{i32})
	fn("thread_exit", never("thread_exit"), []api.ValueType{i32}, nil)
	fn("thread_signal", never("thread_signal"), []api.ValueType{i32, i32}, []api.ValueType{i32})
	fn("proc_id", procID, []api.ValueType{i32}, []api.ValueType{i32})
	fn("stack_checkpoint", stackCheckpoint, []api.ValueType{i32, i32}, []api.ValueType{i32})
	fn("stack_restore", stackRestore, []api.ValueType{i32, i64}, nil)
	_, err := b.Instantiate(ctx)
	return err
}

// callState is what the host functions need during one call into the
// parser: the top of the C stack and the checkpoints taken so far.
type callState struct {
	stackTop    uint32
	checkpoints []checkpoint
}

type checkpoint struct {
	snapshot      experimental.Snapshot
	retValPtr     uint32
	cstackPointer uint32
	cstack        []byte
}

type callStateKey struct{}

// callContext is the context of one call: snapshots enabled and a fresh
// state.
func callContext(ctx context.Context, stackTop uint32) context.Context {
	ctx = experimental.WithSnapshotter(ctx)
	return context.WithValue(ctx, callStateKey{}, &callState{stackTop: stackTop})
}

var procID = api.GoModuleFunc(func(_ context.Context, m api.Module, stack []uint64) {
	m.Memory().WriteUint32Le(uint32(stack[0]), 1)
	stack[0] = 0
})

var stackCheckpoint = api.GoModuleFunc(func(ctx context.Context, mod api.Module, stack []uint64) {
	snapshotPtr, retValPtr := uint32(stack[0]), uint32(stack[1])
	st := ctx.Value(callStateKey{}).(*callState)
	sp := uint32(mod.ExportedGlobal("__stack_pointer").Get())
	if sp > st.stackTop {
		panic("pgparse: the C stack pointer is above its top")
	}
	view, ok := mod.Memory().Read(sp, st.stackTop-sp)
	if !ok {
		panic("pgparse: cannot read the C stack")
	}
	st.checkpoints = append(st.checkpoints, checkpoint{
		snapshot:      experimental.GetSnapshotter(ctx).Snapshot(),
		retValPtr:     retValPtr,
		cstackPointer: sp,
		cstack:        append([]byte(nil), view...),
	})
	// struct StackSnapshot { u64 user; u128 hash; }: user is the index.
	if !mod.Memory().WriteUint64Le(snapshotPtr, uint64(len(st.checkpoints)-1)) || !mod.Memory().WriteUint64Le(retValPtr, 0) {
		panic("pgparse: cannot write a checkpoint")
	}
	stack[0] = 0
})

var stackRestore = api.GoModuleFunc(func(ctx context.Context, mod api.Module, stack []uint64) {
	snapshotPtr, ret := uint32(stack[0]), stack[1]
	idx, ok := mod.Memory().ReadUint64Le(snapshotPtr)
	st := ctx.Value(callStateKey{}).(*callState)
	if !ok || idx >= uint64(len(st.checkpoints)) {
		panic("pgparse: no such checkpoint")
	}
	c := st.checkpoints[idx]
	mod.ExportedGlobal("__stack_pointer").(api.MutableGlobal).Set(uint64(c.cstackPointer))
	mod.Memory().Write(c.cstackPointer, c.cstack)
	mod.Memory().WriteUint64Le(c.retValPtr, ret)
	stack[0] = 0
	c.snapshot.Restore(stack[:1])
})
