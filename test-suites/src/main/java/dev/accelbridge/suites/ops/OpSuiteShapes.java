package dev.accelbridge.suites.ops;

import java.util.ArrayList;
import java.util.List;

import static dev.accelbridge.suites.ops.Op.op;
import static dev.accelbridge.suites.ops.OpSuite.B;
import static dev.accelbridge.suites.ops.OpSuite.F;
import static dev.accelbridge.suites.ops.OpSuite.H;
import static dev.accelbridge.suites.ops.OpSuite.I32;
import static dev.accelbridge.suites.ops.OpSuite.I64;
import static dev.accelbridge.suites.ops.OpSuite.U8;

/** The op suite's shape and data-movement cases (reshape, slicing, gathers, concatenation, padding, ...), in a stable order. */
final class OpSuiteShapes {
    private OpSuiteShapes() {
    }

    static List<OpCase> cases() {
        List<OpCase> l = new ArrayList<>();
        l.add(op("Reshape", 14).in(F, 2, 3, 4).ints(3, -1).v("f32.shape=3+-1"));
        l.add(op("Reshape", 14).in(F, 2, 3, 4).ints(0, 12).v("f32.shape=0+12.copy-dim"));
        l.add(op("Reshape", 14).in(I64, 2, 3, 4).ints(24).v("i64.flat"));
        l.add(op("Transpose", 13).in(F, 2, 3, 4).as("perm", 2, 0, 1).v("f32.perm=2+0+1"));
        l.add(op("Transpose", 13).in(F, 2, 3, 4).v("f32.reverse"));
        l.add(op("Transpose", 13).in(H, 2, 3, 4, 5).as("perm", 0, 2, 3, 1).v("f16.perm=0+2+3+1"));
        l.add(op("Squeeze", 13).in(F, 2, 1, 4).ints(1).v("f32.axes=1"));
        l.add(op("Squeeze", 13).in(F, 1, 3, 1).v("f32.all-ones"));
        l.add(op("Squeeze", 11).in(F, 2, 1, 4).as("axes", 1).v("f32.axes-attr=1"));
        l.add(op("Unsqueeze", 13).in(F, 2, 3).ints(0, 3).v("f32.axes=0+3"));
        l.add(op("Unsqueeze", 13).in(I64, 2, 3).ints(-1).v("i64.axes=-1"));
        l.add(op("Unsqueeze", 11).in(F, 2, 3).as("axes", 0).v("f32.axes-attr=0"));
        l.add(op("Flatten", 13).in(F, 2, 3, 4).v("f32.axis=1"));
        l.add(op("Flatten", 13).in(F, 2, 3, 4).a("axis", 0).v("f32.axis=0"));
        l.add(op("Concat", 13).in(F, 2, 3, 4).in(F, 2, 1, 4).in(F, 2, 2, 4).a("axis", 1).v("f32.three.axis=1"));
        l.add(op("Concat", 13).in(I64, 2, 3).in(I64, 2, 2).a("axis", -1).v("i64.axis=-1"));
        l.add(op("Concat", 13).in(F, 2, 3).in(F, 0, 3).a("axis", 0).v("f32.empty-input"));
        l.add(op("Split", 18).in(F, 2, 3, 4).a("axis", 2).a("num_outputs", 2).out(F, F).v("f32.num_outputs=2"));
        l.add(op("Split", 18).in(F, 2, 3, 4).ints(1, 3).a("axis", 2).out(F, F).v("f32.split=1+3"));
        l.add(op("Split", 18).in(F, 2, 5).a("axis", 1).a("num_outputs", 2).out(F, F).v("f32.uneven"));
        l.add(op("Split", 13).in(F, 2, 6).ints(2, 4).a("axis", 1).out(F, F).v("f32.split=2+4"));
        l.add(op("Slice", 13).in(F, 4, 5, 6).ints(1, 0).ints(3, 4).ints(0, 2).v("f32.axes=0+2"));
        l.add(op("Slice", 13).in(F, 4, 5, 6).ints(-1).ints(-1000).ints(1).ints(-2).v("f32.step=-2"));
        l.add(op("Slice", 13).in(F, 4, 5, 6).ints(1).ints(Long.MAX_VALUE).ints(2).v("f32.end=max"));
        l.add(op("Slice", 13).in(I64, 4, 6).ints(0, 1).ints(4, 6).ints(0, 1).ints(2, 2).v("i64.steps=2+2"));
        l.add(op("Gather", 13).in(F, 5, 4).c(I64, Gen.ints(0, 4), 3).v("f32.axis=0"));
        l.add(op("Gather", 13).in(F, 3, 5, 4).c(I64, Gen.ints(-5, 4), 2, 2).a("axis", 1).v("f32.axis=1.negative-indices"));
        l.add(op("Gather", 13).in(F, 5, 4).in(I32, Gen.ints(0, 4), 3).v("f32.indices=i32.fed"));
        l.add(op("Gather", 13).in(F, 5, 4).scalar(I64, 2).v("f32.scalar-index"));
        l.add(op("GatherElements", 13).in(F, 3, 4).c(I64, Gen.ints(0, 3), 3, 2).a("axis", 1).v("f32.axis=1"));
        l.add(op("GatherElements", 13).in(F, 3, 4).c(I64, Gen.ints(-3, 2), 2, 4).a("axis", 0).v("f32.axis=0.negative-indices"));
        l.add(op("GatherND", 13).in(F, 3, 4, 5).c(I64, Gen.ints(0, 2), 2, 2).v("f32.batch_dims=0"));
        l.add(op("GatherND", 13).in(F, 2, 4, 5).c(I64, Gen.ints(0, 3), 2, 1).a("batch_dims", 1).v("f32.batch_dims=1"));
        l.add(op("ScatterElements", 18).in(F, 3, 4).c(I64, Gen.fixed(0, 1, 2, 3, 3, 2, 1, 0), 2, 4).in(F, 2, 4).a("axis", 1).v("f32.axis=1"));
        l.add(op("ScatterElements", 18).in(F, 3, 4).c(I64, Gen.fixed(0, 1, 1, 2), 1, 4).in(F, 1, 4).a("axis", 0)
                .a("reduction", "add").v("f32.reduction=add"));
        l.add(op("ScatterND", 18).in(F, 4, 3).c(I64, Gen.fixed(2, 0), 2, 1).in(F, 2, 3).v("f32"));
        l.add(op("ScatterND", 18).in(F, 4, 3).c(I64, Gen.fixed(1, 1), 2, 1).in(F, 2, 3).a("reduction", "add").v("f32.reduction=add.duplicates"));
        l.add(op("Expand", 13).in(F, 3, 1).ints(2, 3, 4).v("f32.shape=2+3+4"));
        l.add(op("Expand", 13).in(I64, 1, 4).ints(3, 1).v("i64.bcast-both"));
        l.add(op("Tile", 13).in(F, 2, 3, 4).ints(1, 2, 2).v("f32.repeats=1+2+2"));
        l.add(op("Tile", 13).in(I32, 2, 3).ints(3, 1).v("i32.repeats=3+1"));
        l.add(op("Pad", 19).in(F, 2, 3, 4).ints(0, 1, 2, 0, 1, 2).v("f32.constant"));
        l.add(op("Pad", 19).in(F, 2, 3, 4).ints(0, 1, 2, 0, 1, 2).scalar(F, 1.5).v("f32.constant-value=1.5"));
        l.add(op("Pad", 19).in(F, 2, 3, 4).ints(0, 1, 2, 0, 1, 2).a("mode", "reflect").v("f32.mode=reflect"));
        l.add(op("Pad", 19).in(F, 2, 3, 4).ints(0, 1, 2, 0, 1, 2).a("mode", "edge").v("f32.mode=edge"));
        l.add(op("Pad", 19).in(F, 2, 3, 4).ints(0, 0, 2, 0, 0, 2).a("mode", "wrap").v("f32.mode=wrap"));
        l.add(op("Pad", 19).in(F, 2, 3, 4).ints(0, 0, -1, 0, 0, -1).v("f32.negative-pads"));
        l.add(op("Pad", 19).in(F, 2, 3, 4).ints(1, 1).none().ints(1).v("f32.axes=1"));
        l.add(op("Pad", 11).in(F, 2, 3, 4).ints(0, 1, 2, 0, 1, 2).v("f32.constant"));
        l.add(op("Shape", 15).in(F, 2, 3, 4).out(I64).v("f32"));
        l.add(op("Shape", 15).in(F, 2, 3, 4).a("start", 1).a("end", -1).out(I64).v("f32.start=1.end=-1"));
        l.add(op("Size", 13).in(F, 2, 3, 4).out(I64).v("f32"));
        l.add(op("Cast", 19).in(F, Gen.fixed(-2.7, -0.5, 0.5, 1.5, 2.5, 3.9), 2, 3).a("to", I32.onnxCode()).out(I32).v("f32-to-i32.truncate"));
        l.add(op("Cast", 19).in(I32, Gen.ints(-1000, 1000), 2, 3).a("to", F.onnxCode()).out(F).v("i32-to-f32"));
        l.add(op("Cast", 19).in(F, 2, 3, 4).a("to", H.onnxCode()).out(H).v("f32-to-f16"));
        l.add(op("Cast", 19).in(H, 2, 3, 4).a("to", F.onnxCode()).out(F).v("f16-to-f32"));
        l.add(op("Cast", 19).in(F, Gen.TIES, 2, 3).a("to", B.onnxCode()).out(B).v("f32-to-bool"));
        l.add(op("Cast", 19).in(I64, Gen.ints(-1000, 1000), 2, 3).a("to", F.onnxCode()).out(F).v("i64-to-f32"));
        l.add(op("Cast", 19).in(B, Gen.BOOL, 2, 3).a("to", I32.onnxCode()).out(I32).v("bool-to-i32"));
        l.add(op("Cast", 19).in(I32, Gen.ints(-200, 300), 2, 3).a("to", U8.onnxCode()).out(U8).v("i32-to-u8.wrap"));
        l.add(op("CastLike", 19).in(F, Gen.fixed(-2.7, 0.5, 3.9), 2, 3).c(I32, Gen.fixed(0), 1).out(I32).v("f32-like-i32"));
        l.add(op("DepthToSpace", 13).in(F, 1, 8, 2, 3).a("blocksize", 2).v("f32.mode=DCR"));
        l.add(op("DepthToSpace", 13).in(F, 1, 8, 2, 3).a("blocksize", 2).a("mode", "CRD").v("f32.mode=CRD"));
        l.add(op("SpaceToDepth", 13).in(F, 1, 2, 4, 6).a("blocksize", 2).v("f32.blocksize=2"));
        l.add(op("Trilu", 14).in(F, 2, 4, 5).v("f32.upper"));
        l.add(op("Trilu", 14).in(F, 2, 4, 5).scalar(I64, 1).a("upper", 0).v("f32.lower.k=1"));
        l.add(op("Trilu", 14).in(I64, 4, 4).scalar(I64, -1).v("i64.upper.k=-1"));
        l.add(op("Range", 11).in(F, Gen.fixed(0.25)).scalar(F, 5).scalar(F, 0.5).v("f32"));
        l.add(op("Range", 11).in(I64, Gen.fixed(10)).scalar(I64, 0).scalar(I64, -3).v("i64.negative-delta"));
        l.add(op("ConstantOfShape", 20).in(I64, Gen.fixed(2, 3), 2).at("value", F, 1.25).out(F).v("f32.value=1.25"));
        l.add(op("ConstantOfShape", 20).in(I64, Gen.fixed(3), 1).at("value", I64, 7).out(I64).v("i64.value=7"));
        l.add(op("OneHot", 11).in(I64, Gen.ints(-4, 4), 2, 3).c(I64, Gen.fixed(5), 1).c(F, Gen.fixed(0, 1), 2).out(F).v("f32.depth=5.negative-indices"));
        l.add(op("OneHot", 11).in(I64, Gen.ints(0, 4), 3).c(I64, Gen.fixed(5), 1).c(F, Gen.fixed(-1, 2), 2).a("axis", 0).out(F).v("f32.axis=0"));
        l.add(op("NonZero", 13).in(F, Gen.TIES, 3, 4).out(I64).v("f32"));
        l.add(op("Compress", 11).in(F, 4, 3).c(B, Gen.fixed(1, 0, 1, 1), 4).a("axis", 0).v("f32.axis=0"));
        l.add(op("Compress", 11).in(F, 4, 3).c(B, Gen.fixed(0, 1, 1, 0, 0, 1), 6).v("f32.flattened"));
        l.add(op("ReverseSequence", 10).in(F, 4, 2, 3).c(I64, Gen.fixed(4, 2), 2).a("time_axis", 0).a("batch_axis", 1).v("f32.time_axis=0"));
        l.add(op("Unique", 11).in(F, Gen.TIES, 8).out(F, I64, I64, I64).v("f32.sorted"));
        l.add(op("Unique", 11).in(I64, Gen.TIES, 3, 4).a("axis", 0).a("sorted", 0).out(I64, I64, I64, I64).v("i64.axis=0.unsorted"));
        l.add(op("EyeLike", 9).in(F, 3, 4).a("k", 1).v("f32.k=1"));
        l.add(op("EyeLike", 9).in(F, 4, 4).a("dtype", I64.onnxCode()).out(I64).v("f32-to-i64"));
        l.add(op("Einsum", 12).in(F, 3, 4).in(F, 4, 5).a("equation", "ij,jk->ik").v("f32.matmul"));
        l.add(op("Einsum", 12).in(F, 2, 3, 4).in(F, 2, 4, 5).a("equation", "bij,bjk->bik").v("f32.batched"));
        l.add(op("Einsum", 12).in(F, 4, 4).a("equation", "ii->i").v("f32.diagonal"));
        l.add(op("Einsum", 12).in(F, 2, 3).a("equation", "ij->").v("f32.sum-all"));
        l.add(op("CenterCropPad", 18).in(F, 4, 5).ints(3, 6).v("f32.crop-and-pad"));
        return l;
    }
}
