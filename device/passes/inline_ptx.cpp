// A clang pass plugin for the simulated device's compile (and the AMDGPU
// compile of the same source): inline PTX assembly becomes IR.
//
// CUDA code (CUB's util_ptx.cuh, hand-tuned kernels) writes warp shuffles,
// bit-field instructions and cache-hinted loads as asm statements in PTX,
// which neither x86-64's nor AMDGPU's assembler reads.  Before any other
// pass, each call of an inline asm whose template is PTX is replaced by what
// it computes:
//  - the template is read into statements: `{ }` scopes, `.reg` declarations
//    (`.reg .u32 r<4>;` too), `@p`/`@!p` guards, instructions whose operands
//    are the asm's (`$N` in IR), registers, immediates, `{a, b}` vectors,
//    `[a+8]` addresses, `d|p` pairs and `_`;
//  - straight-line code only: registers are SSA values in a map, an
//    instruction under a guard runs in a block of its own with phis after;
//  - operand types come from the IR (the value's width, integer, float or
//    pointer) and the instruction's type suffix, not from constraint
//    letters: values are converted to the instruction's width and the
//    results to the asm's result types;
//  - arithmetic, logic, comparisons, conversions, bit-field instructions,
//    loads, stores, atomics and fences become plain IR; what needs the lanes
//    of a warp, the block or the runtime (shfl, vote, match, redux, barriers,
//    special registers, trap, nanosleep) becomes a call of a __gpusym_ptx_*
//    function of the CUDA headers (gpusym_cuda_detail/ptx.h), always inlined
//    later, so the other passes see the same warp functions as in C++.
// What cannot be translated (a branch or label, an unknown instruction or
// register) is reported as an error at the asm statement, and the call is
// dropped, so the module stays valid.  Rounding modes other than to nearest
// (.rz, .rm, .rp on add, mul, fma, cvt to float) are refused the same way.
#include "llvm/IR/Constants.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"
#include "shared_memory.h"

#include <optional>
#include <string>
#include <variant>
#include <vector>

using namespace llvm;
using gpusym_passes::is_kernel;

namespace {

constexpr const char *kHelperPrefix = "__gpusym_ptx_";
constexpr const char *kExitMark = "__gpusym_ptx_exit_mark";

// A PTX type: b (bits), u, s, f or p (predicate), and its width.
struct PtxType {
  char kind = 'b';
  unsigned bits = 32;
  bool is_signed() const { return kind == 's'; }
  bool is_float() const { return kind == 'f'; }
};

std::optional<PtxType> parse_type(StringRef text) {
  if (text == "pred") return PtxType{'p', 1};
  unsigned bits = 0;
  if (text.size() < 2 || !StringRef("busf").contains(text[0]) || text.drop_front().getAsInteger(10, bits))
    return std::nullopt;
  if (bits != 8 && bits != 16 && bits != 32 && bits != 64) return std::nullopt;
  if (text[0] == 'f' && bits == 8) return std::nullopt;
  return PtxType{text[0], bits};
}

struct Operand {
  enum Kind { Register, Argument, Integer, Real, Vector, Address, Pair, Sink } kind = Sink;
  std::string name;            // Register
  unsigned number = 0;         // Argument
  uint64_t value = 0;          // Integer (0f/0d literals give their bits)
  double real = 0;             // Real: a decimal literal
  bool negated = false;        // !p
  int64_t offset = 0;          // Address
  std::vector<Operand> parts;  // Vector's elements, Address's base (if any), Pair's two
};

struct Statement {
  enum Kind { Open, Close, Declare, Instruction } kind = Instruction;
  std::string opcode;  // an instruction's, or a directive's (.reg), or a label
  std::string guard;
  bool guard_negated = false;
  std::vector<Operand> operands;
  PtxType type;                                         // Declare
  std::vector<std::pair<std::string, unsigned>> names;  // Declare: name and count (0: one register)
};

std::string unsupported(const Twine &what) {
  return ("inline PTX instruction '" + what + "' is not supported on the simulated device").str();
}

// The template as PTX: clang's escapes undone ($( $| $) for { | }, $$ for
// $), ${N:modifier} as $N, comments gone.
std::string plain_template(StringRef text) {
  std::string out;
  for (size_t i = 0; i < text.size(); i++) {
    char c = text[i];
    if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      while (i < text.size() && text[i] != '\n') i++;
      out += '\n';
    } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
      size_t end = text.find("*/", i + 2);
      i = end == StringRef::npos ? text.size() : end + 1;
      out += ' ';
    } else if (c == '$' && i + 1 < text.size() && StringRef("(|)").contains(text[i + 1])) {
      out += text[i + 1] == '(' ? '{' : text[i + 1] == ')' ? '}' : '|';
      i++;
    } else if (c == '$' && i + 1 < text.size() && text[i + 1] == '{') {
      size_t end = text.find('}', i);
      if (end == StringRef::npos) end = text.size() - 1;
      out += '$';
      out += text.slice(i + 2, end).take_while([](char d) { return isDigit(d); }).str();
      i = end;
    } else if (c == '$' && i + 1 < text.size() && text[i + 1] == '$') {
      out += "$$";
      i++;
    } else {
      out += c;
    }
  }
  return out;
}

// The statement texts of a plain template, with { and } on their own.
std::vector<std::string> split_statements(StringRef text) {
  std::vector<std::string> statements;
  std::string current;
  int depth = 0;  // of braces inside an instruction's operands
  auto flush = [&] {
    StringRef trimmed = StringRef(current).trim();
    if (!trimmed.empty()) statements.push_back(trimmed.str());
    current.clear();
  };
  for (char c : text) {
    bool at_start = StringRef(current).trim().empty() || StringRef(current).trim().ends_with(":");
    if ((c == '{' || c == '}') && depth == 0 && at_start) {
      flush();
      statements.push_back(std::string(1, c));
    } else if (c == ';' && depth == 0) {
      flush();
    } else {
      depth += c == '{' ? 1 : c == '}' ? -1 : 0;
      current += c;
    }
  }
  flush();
  return statements;
}

bool is_name_char(char c) { return isAlnum(c) || c == '_' || c == '%' || c == '.' || c == '$'; }

std::optional<Operand> parse_operand(StringRef text) {
  text = text.trim();
  Operand op;
  if (text.consume_front("!")) {
    std::optional<Operand> inner = parse_operand(text);
    if (inner) inner->negated = true;
    return inner;
  }
  // A top-level | makes a pair (shfl's d|p, setp's p|q).
  int depth = 0;
  for (size_t i = 0; i < text.size(); i++) {
    depth += StringRef("{[").contains(text[i]) ? 1 : StringRef("}]").contains(text[i]) ? -1 : 0;
    if (text[i] == '|' && depth == 0) {
      std::optional<Operand> first = parse_operand(text.take_front(i)), second = parse_operand(text.drop_front(i + 1));
      if (!first || !second) return std::nullopt;
      op.kind = Operand::Pair;
      op.parts = {*first, *second};
      return op;
    }
  }
  if (text.consume_front("{")) {
    if (!text.consume_back("}")) return std::nullopt;
    SmallVector<StringRef, 4> items;
    text.split(items, ',');
    op.kind = Operand::Vector;
    for (StringRef item : items) {
      std::optional<Operand> element = parse_operand(item);
      if (!element) return std::nullopt;
      op.parts.push_back(*element);
    }
    return op;
  }
  if (text.consume_front("[")) {
    if (!text.consume_back("]")) return std::nullopt;
    op.kind = Operand::Address;
    size_t sign = text.find_last_of("+-");
    StringRef base = text, offset;
    if (sign != StringRef::npos && sign > 0) {
      base = text.take_front(sign);
      offset = text.drop_front(sign).trim();
    }
    std::optional<Operand> start = parse_operand(base);
    if (!start) return std::nullopt;
    if (start->kind == Operand::Integer && offset.empty()) {
      op.offset = static_cast<int64_t>(start->value);
      return op;
    }
    op.parts.push_back(*start);
    bool negative = offset.consume_front("-");
    offset.consume_front("+");
    std::optional<Operand> amount = offset.empty() ? std::nullopt : parse_operand(offset);
    if (!offset.empty() && (!amount || amount->kind != Operand::Integer)) return std::nullopt;
    if (amount) op.offset = negative ? -static_cast<int64_t>(amount->value) : static_cast<int64_t>(amount->value);
    return op;
  }
  if (text == "_") return op;
  if (text.starts_with("$") && text.size() > 1 && all_of(text.drop_front(), isDigit)) {
    op.kind = Operand::Argument;
    text.drop_front().getAsInteger(10, op.number);
    return op;
  }
  if (!text.empty() && (isDigit(text[0]) || text[0] == '-' || text[0] == '+')) {
    bool negative = text.consume_front("-");
    text.consume_front("+");
    StringRef digits = text;
    op.kind = Operand::Integer;
    if ((digits.starts_with_insensitive("0f") || digits.starts_with_insensitive("0d")) && digits.size() > 2 &&
        !digits.drop_front(2).getAsInteger(16, op.value))
      return op;
    digits.consume_back("U");
    uint64_t value = 0;
    if (!digits.getAsInteger(0, value)) {  // 0x, 0b, 0 (octal) and decimal
      op.value = negative ? -value : value;
      return op;
    }
    double real = 0;
    if (!text.getAsDouble(real)) {
      op.kind = Operand::Real;
      op.real = negative ? -real : real;
      return op;
    }
    return std::nullopt;
  }
  if (text.empty() || !all_of(text, is_name_char)) return std::nullopt;
  op.kind = Operand::Register;
  op.name = text.str();
  return op;
}

// One statement's text as a Statement, or an error message.
std::variant<Statement, std::string> parse_statement(StringRef text) {
  Statement statement;
  if (text == "{" || text == "}") {
    statement.kind = text == "{" ? Statement::Open : Statement::Close;
    return statement;
  }
  if (text.consume_front("@")) {
    statement.guard_negated = text.consume_front("!");
    StringRef guard = text.take_while(is_name_char);
    statement.guard = guard.str();
    text = text.drop_front(guard.size()).ltrim();
  }
  StringRef opcode = text.take_while([](char c) { return !isSpace(c); });
  statement.opcode = opcode.str();
  text = text.drop_front(opcode.size()).trim();
  if (opcode.ends_with(":") && !opcode.ends_with("::")) return unsupported(opcode);
  if (opcode == ".reg") {
    statement.kind = Statement::Declare;
    StringRef type = text.take_while([](char c) { return !isSpace(c); });
    std::optional<PtxType> parsed = type.consume_front(".") ? parse_type(type) : std::nullopt;
    if (!parsed) return unsupported((".reg ." + type).str());
    statement.type = *parsed;
    SmallVector<StringRef, 4> names;
    text.drop_front(type.size() + 1).split(names, ',');
    for (StringRef name : names) {
      name = name.trim();
      unsigned count = 0;
      if (size_t open = name.find('<'); open != StringRef::npos) {
        if (!name.ends_with(">") || name.slice(open + 1, name.size() - 1).getAsInteger(10, count) || !count)
          return "cannot read the inline PTX declaration '.reg " + text.str() + "'";
        name = name.take_front(open);
      }
      if (name.empty() || !all_of(name, is_name_char))
        return "cannot read the inline PTX declaration '.reg " + text.str() + "'";
      statement.names.emplace_back(name.str(), count);
    }
    return statement;
  }
  if (opcode.starts_with(".")) return unsupported(opcode);
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); i++) {
    char c = i < text.size() ? text[i] : ',';
    depth += StringRef("{[").contains(c) ? 1 : StringRef("}]").contains(c) ? -1 : 0;
    if (c != ',' || depth != 0) continue;
    StringRef item = text.slice(start, i).trim();
    start = i + 1;
    if (item.empty() && text.empty()) break;
    std::optional<Operand> operand = parse_operand(item);
    if (!operand) return "cannot read the operand '" + item.str() + "' of inline PTX '" + opcode.str() + "'";
    statement.operands.push_back(*operand);
  }
  return statement;
}

// Whether a template is PTX: its first instruction has a dotted opcode
// (neither x86 nor AMDGPU mnemonics have dots), is a .reg declaration, a
// guard, or one of PTX's opcodes without a suffix.
bool is_ptx(StringRef text) {
  for (const std::string &item : split_statements(plain_template(text))) {
    StringRef statement(item);
    if (statement == "{" || statement == "}" || statement.starts_with("@") || statement.starts_with(".reg"))
      return true;
    StringRef opcode = statement.take_while([](char c) { return !isSpace(c); });
    if (opcode.starts_with(".")) return false;
    if (opcode.contains('.')) return true;
    return StringSwitch<bool>(opcode).Cases("exit", "trap", "bra", "ret", "brkpt", "pmevent", true).Default(false);
  }
  return false;
}

struct Register {
  Value *value;
  unsigned bits;
};

// Translates one asm call.  Values are kept as integers (i1 for predicates)
// of their register's or operand's width; floats are bitcast on the way in
// and out of an operation.
class Translator {
 public:
  Translator(CallInst &call) : call_(call), builder_(&call), module_(*call.getModule()), context_(call.getContext()) {}

  // Replaces the call by its translation, or returns an error message.
  std::optional<std::string> run() {
    auto *asm_value = cast<InlineAsm>(call_.getCalledOperand());
    if (auto failed = read_constraints(*asm_value)) return failed;
    scopes_.emplace_back();
    if (clobbers_memory_) builder_.CreateFence(AtomicOrdering::SequentiallyConsistent, SyncScope::SingleThread);
    // Statement by statement, so that the first one that cannot be translated is the one reported.
    for (const std::string &text : split_statements(plain_template(asm_value->getAsmString()))) {
      auto parsed = parse_statement(text);
      if (auto *message = std::get_if<std::string>(&parsed)) return *message;
      if (!execute(std::get<Statement>(parsed))) return error_;
    }
    if (clobbers_memory_) builder_.CreateFence(AtomicOrdering::SequentiallyConsistent, SyncScope::SingleThread);
    return finish();
  }

 private:
  CallInst &call_;
  IRBuilder<> builder_;
  Module &module_;
  LLVMContext &context_;
  std::string error_;
  bool clobbers_memory_ = false;
  unsigned outputs_ = 0;
  std::vector<Value *> operands_;  // by number: an input's value, an output's current one (or null)
  SmallVector<StringMap<Register>, 4> scopes_;
  Value *guard_ = nullptr;  // set while an instruction runs under a guard
  std::vector<std::pair<Value **, Value *>> guarded_writes_;

  bool fail(std::string message) {
    error_ = std::move(message);
    return false;
  }

  std::optional<std::string> read_constraints(const InlineAsm &asm_value) {
    unsigned input = 0;
    for (const InlineAsm::ConstraintInfo &info : asm_value.ParseConstraints()) {
      if (info.Type == InlineAsm::isClobber) {
        if (!info.Codes.empty() && info.Codes[0] == "{memory}") clobbers_memory_ = true;
        continue;
      }
      if (info.Type == InlineAsm::isOutput) {
        if (info.isIndirect) return "inline PTX with a memory output operand is not supported on the simulated device";
        outputs_++;
        operands_.push_back(nullptr);
        continue;
      }
      Value *argument = call_.getArgOperand(input++);
      unsigned tied = 0;  // a "0" input: output 0's value before the asm writes it
      if (!info.Codes.empty() && !StringRef(info.Codes[0]).getAsInteger(10, tied) && tied < outputs_)
        operands_[tied] = argument;
      operands_.push_back(argument);
    }
    return std::nullopt;
  }

  // ---- values ----

  IntegerType *int_type(unsigned bits) { return IntegerType::get(context_, bits); }

  Type *float_type(unsigned bits) {
    return bits == 16 ? builder_.getHalfTy() : bits == 64 ? builder_.getDoubleTy() : builder_.getFloatTy();
  }

  Value *as_integer(Value *value) {
    Type *type = value->getType();
    if (type->isIntegerTy()) return value;
    if (type->isPointerTy())
      return builder_.CreatePtrToInt(value, module_.getDataLayout().getIntPtrType(type));
    return builder_.CreateBitCast(value, int_type(type->getPrimitiveSizeInBits().getFixedValue()));
  }

  Value *resize(Value *value, unsigned bits, bool sign) {
    value = as_integer(value);
    unsigned have = value->getType()->getIntegerBitWidth();
    if (bits == 1 && have != 1) return builder_.CreateICmpNE(value, ConstantInt::get(value->getType(), 0));
    if (have == 1 || !sign) return builder_.CreateZExtOrTrunc(value, int_type(bits));
    return builder_.CreateSExtOrTrunc(value, int_type(bits));
  }

  Register *lookup(StringRef name) {
    for (auto scope = scopes_.rbegin(); scope != scopes_.rend(); ++scope)
      if (auto found = scope->find(name); found != scope->end()) return &found->second;
    return nullptr;
  }

  Value *helper(StringRef name, ArrayRef<Value *> arguments) {
    Function *function = module_.getFunction((kHelperPrefix + name).str());
    if (!function) {
      fail(("inline PTX needs " + Twine(kHelperPrefix) + name + " of cuda_runtime.h, which this source lacks").str());
      return nullptr;
    }
    SmallVector<Value *, 6> fitted;
    for (auto [argument, parameter] : zip(arguments, function->getFunctionType()->params()))
      fitted.push_back(resize(argument, parameter->getIntegerBitWidth(), false));
    CallInst *helper_call = builder_.CreateCall(function, fitted);
    helper_call->setDebugLoc(call_.getDebugLoc());
    return helper_call;
  }

  Value *special(StringRef name) {
    static const char *const names[] = {
        "%laneid",      "%warpid",      "%nwarpid",     "%lanemask_eq", "%lanemask_lt", "%lanemask_le", "%lanemask_gt",
        "%lanemask_ge", "%tid.x",       "%tid.y",       "%tid.z",       "%ntid.x",      "%ntid.y",      "%ntid.z",
        "%ctaid.x",     "%ctaid.y",     "%ctaid.z",     "%nctaid.x",    "%nctaid.y",    "%nctaid.z",    "%clock",
        "%clock64",     "%globaltimer", "%globaltimer_lo", "%globaltimer_hi", "%smid"};
    for (unsigned which = 0; which < std::size(names); which++)
      if (name == names[which]) {
        Value *value = helper("special", {builder_.getInt32(which)});
        bool wide = name == "%clock64" || name == "%globaltimer";
        return value ? resize(value, wide ? 64 : 32, false) : nullptr;
      }
    fail(("inline PTX register '" + name + "' is not supported on the simulated device").str());
    return nullptr;
  }

  // `op` as an integer of `bits` (1: a predicate), extended as `sign` says.
  Value *read(const Operand &op, unsigned bits, bool sign = false) {
    Value *value = nullptr;
    switch (op.kind) {
      case Operand::Register:
        if (Register *reg = lookup(op.name)) value = reg->value;
        else if (StringRef(op.name).starts_with("%")) value = special(op.name);
        else fail("inline PTX register '" + op.name + "' is not declared");
        break;
      case Operand::Argument:
        if (op.number >= operands_.size()) fail("inline PTX operand $" + std::to_string(op.number) + " does not exist");
        else value = operands_[op.number] ? operands_[op.number] : UndefValue::get(int_type(bits));
        break;
      case Operand::Integer: value = ConstantInt::get(int_type(64), op.value); break;
      case Operand::Real: {
        APFloat real(op.real);
        bool lost = false;
        if (bits == 16) real.convert(APFloat::IEEEhalf(), APFloat::rmNearestTiesToEven, &lost);
        if (bits == 32) real.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven, &lost);
        value = ConstantInt::get(context_, real.bitcastToAPInt());
        break;
      }
      default: fail("an inline PTX operand of this kind cannot be read here"); break;
    }
    if (!value) return nullptr;
    value = resize(value, bits, sign || op.kind == Operand::Integer);
    return op.negated ? builder_.CreateNot(value) : value;
  }

  Value *read_float(const Operand &op, unsigned bits) {
    Value *value = read(op, bits);
    return value ? builder_.CreateBitCast(value, float_type(bits)) : nullptr;
  }

  // Writes `value` (an integer, a float or a predicate) to `op`.
  bool write(const Operand &op, Value *value, bool sign = false) {
    value = as_integer(value);
    Value **slot = nullptr;
    if (op.kind == Operand::Sink) return true;
    if (op.kind == Operand::Register) {
      Register *reg = lookup(op.name);
      if (!reg) return fail("inline PTX register '" + op.name + "' is not declared");
      value = resize(value, reg->bits, sign);
      slot = &reg->value;
    } else if (op.kind == Operand::Argument && op.number < outputs_) {
      slot = &operands_[op.number];
    } else {
      return fail("inline PTX writes to an operand that is no output");
    }
    if (guard_) guarded_writes_.emplace_back(slot, value);
    else *slot = value;
    return true;
  }

  Value *address(const Operand &op) {
    if (op.kind != Operand::Address) {
      fail("inline PTX expects an address [...]");
      return nullptr;
    }
    Type *pointer_type = builder_.getPtrTy();
    Value *base = ConstantPointerNull::get(builder_.getPtrTy());
    if (!op.parts.empty()) {
      const Operand &start = op.parts[0];
      Value *argument = start.kind == Operand::Argument && start.number < operands_.size() ? operands_[start.number]
                                                                                            : nullptr;
      if (argument && argument->getType()->isPointerTy()) {
        base = builder_.CreateAddrSpaceCast(argument, pointer_type);  // keeps what it points to in sight
      } else {
        Value *integer = read(start, 64);
        if (!integer) return nullptr;
        Type *given = start.kind == Operand::Argument && argument ? argument->getType() : nullptr;
        if (given && given->getPrimitiveSizeInBits() < 64) {
          fail("a 32-bit address in inline PTX is not supported on the simulated device");
          return nullptr;
        }
        base = builder_.CreateIntToPtr(integer, pointer_type);
      }
    }
    return op.offset ? builder_.CreateGEP(builder_.getInt8Ty(), base, builder_.getInt64(op.offset)) : base;
  }

  // ---- statements ----

  bool execute(const Statement &statement) {
    switch (statement.kind) {
      case Statement::Open: scopes_.emplace_back(); return true;
      case Statement::Close:
        if (scopes_.size() == 1) return fail("inline PTX closes a scope it did not open");
        scopes_.pop_back();
        return true;
      case Statement::Declare:
        for (auto &[name, count] : statement.names) {
          Register reg{ConstantInt::get(int_type(statement.type.bits), 0), statement.type.bits};
          if (!count) scopes_.back()[name] = reg;
          for (unsigned n = 0; n < count; n++) scopes_.back()[name + std::to_string(n)] = reg;
        }
        return true;
      case Statement::Instruction: break;
    }
    if (statement.guard.empty()) return instruction(statement);
    Operand guard_operand;
    guard_operand.kind = Operand::Register;
    guard_operand.name = statement.guard;
    Value *guard = read(guard_operand, 1);
    if (!guard) return false;
    if (statement.guard_negated) guard = builder_.CreateNot(guard);
    // The instruction in a block of its own, its writes merged by phis.
    Instruction *then_end = SplitBlockAndInsertIfThen(guard, call_.getIterator(), false);
    BasicBlock *head = then_end->getParent()->getSinglePredecessor();
    builder_.SetInsertPoint(then_end);
    builder_.SetCurrentDebugLocation(call_.getDebugLoc());
    guard_ = guard;
    bool done = instruction(statement);
    guard_ = nullptr;
    BasicBlock *then_block = builder_.GetInsertBlock();
    for (auto &[slot, value] : guarded_writes_) {
      builder_.SetInsertPoint(head->getTerminator());  // the value before, at the width written
      Value *old = *slot ? resize(*slot, value->getType()->getIntegerBitWidth(), false) : nullptr;
      builder_.SetInsertPoint(&call_);
      PHINode *phi = builder_.CreatePHI(value->getType(), 2);
      phi->addIncoming(value, then_block);
      phi->addIncoming(old ? old : UndefValue::get(value->getType()), head);
      *slot = phi;
    }
    builder_.SetInsertPoint(&call_);
    guarded_writes_.clear();
    return done;
  }

  bool instruction(const Statement &statement) {
    SmallVector<StringRef, 8> parts;
    StringRef(statement.opcode).split(parts, '.');
    StringRef base = parts[0];
    ArrayRef<StringRef> mods = ArrayRef(parts).drop_front();
    SmallVector<PtxType, 3> types;
    for (StringRef mod : mods)
      if (auto type = parse_type(mod)) types.push_back(*type);
    auto has = [&](StringRef mod) { return is_contained(mods, mod); };
    const std::vector<Operand> &ops = statement.operands;
    auto count = [&](size_t wanted) {
      return ops.size() == wanted ||
             fail("inline PTX '" + statement.opcode + "' takes " + std::to_string(wanted) + " operands");
    };
    // Directed rounding of float results (.rz, .rm, .rp; not cvt's .rzi and
    // kin, which round to an integer) has no IR here: refused, not rounded
    // to nearest, so no last bit is silently different.
    for (StringRef mode : {"rz", "rm", "rp"})
      if (has(mode))
        return fail(("inline PTX rounding mode '." + mode + "' of '" + statement.opcode +
                     "' is not supported on the simulated device")
                        .str());
    bool known = true;
    bool done = dispatch(base, mods, types, has, ops, count, known);
    if (!known) return fail(unsupported(statement.opcode));
    return done;
  }

  template <typename Has, typename Count>
  bool dispatch(StringRef base, ArrayRef<StringRef> mods, ArrayRef<PtxType> types, Has has,
                const std::vector<Operand> &ops, Count count, bool &known) {
    PtxType type = types.empty() ? PtxType{} : types.back();
    if (base == "mov") return mov(type, ops) ;
    if (base == "cvta") return count(2) && write(ops[0], read(ops[1], 64));
    if (base == "isspacep") return count(2) && write(ops[0], builder_.getTrue());
    if (base == "shfl") return shfl(mods, ops);
    if (base == "vote") return vote(mods, type, ops);
    if (base == "activemask") return count(1) && call_helper(ops[0], "activemask", {});
    if (base == "match") return match(mods, type, ops);
    if (base == "redux") return redux(mods, type, ops);
    if ((base == "bar" || base == "barrier") && has("warp")) return count(1) && sync_warp(ops[0]);
    if ((base == "bar" || base == "barrier") && (has("sync") || mods.empty() || has("aligned")) && !has("red") &&
        !has("arrive"))
      return helper("barrier", {}) != nullptr;
    if (base == "membar" || base == "fence") {
      builder_.CreateFence(AtomicOrdering::SequentiallyConsistent);
      return true;
    }
    if (base == "trap") return helper("trap", {}) != nullptr;
    if (base == "nanosleep") {
      Value *time = count(1) ? read(ops[0], 32) : nullptr;
      return time && helper("nanosleep", {time});
    }
    if (base == "pmevent" || base == "prefetch" || base == "prefetchu") return true;
    if (base == "exit") return exit();
    if (base == "ld" || base == "ldu") return load(mods, type, ops);
    if (base == "st") return store(mods, type, ops);
    if (base == "atom" || base == "red") return atomic(base == "red", mods, type, ops);
    if (base == "setp" || base == "set") return compare(base == "set", mods, types, ops);
    if (base == "selp") {
      if (!count(4)) return false;
      Value *a = read(ops[1], type.bits), *b = read(ops[2], type.bits), *c = read(ops[3], 1);
      return a && b && c && write(ops[0], builder_.CreateSelect(c, a, b));
    }
    if (base == "slct") {
      if (!count(4) || types.size() != 2) return count(4) && fail(unsupported("slct"));
      Value *a = read(ops[1], types[0].bits), *b = read(ops[2], types[0].bits);
      Value *c = types[1].is_float() ? read_float(ops[3], 32) : read(ops[3], 32);
      if (!a || !b || !c) return false;
      Value *take = types[1].is_float() ? builder_.CreateFCmpOGE(c, ConstantFP::get(c->getType(), 0.0))
                                         : builder_.CreateICmpSGE(c, builder_.getInt32(0));
      return write(ops[0], builder_.CreateSelect(take, a, b));
    }
    if (base == "cvt") return convert(mods, types, ops);
    if (base == "lop3") return lop3(ops);
    if (base == "bfe") return bit_field_extract(type, ops);
    if (base == "bfi") return bit_field_insert(type, ops);
    if (base == "prmt") return mods.size() == 1 ? permute(ops) : (known = false);
    if (base == "vadd" || base == "vsub" || base == "vmin" || base == "vmax" || base == "vshl" || base == "vshr" ||
        base == "vabsdiff")
      return video(base, mods, types, ops);
    if (is_contained({"vadd2", "vsub2", "vmin2", "vmax2", "vabsdiff2", "vadd4", "vsub4", "vmin4", "vmax4", "vabsdiff4"},
                     base))
      return video_lanes(base, mods, types, ops);
    if (type.is_float()) return float_arithmetic(base, mods, type, ops, known);
    return integer_arithmetic(base, mods, type, ops, known);
  }

  bool call_helper(const Operand &out, StringRef name, ArrayRef<Value *> arguments) {
    for (Value *argument : arguments)
      if (!argument) return false;
    Value *value = helper(name, arguments);
    return value && write(out, value);
  }

  bool sync_warp(const Operand &mask) {
    Value *value = read(mask, 32);
    return value && helper("syncwarp", {value});
  }

  // The lane ends: a mark that ExitLanes makes a return from the kernel
  // once the device functions are inlined (CUB's ThreadExit is one).
  bool exit() {
    FunctionCallee mark = module_.getOrInsertFunction(kExitMark, Type::getVoidTy(context_));
    builder_.CreateCall(mark);
    return true;
  }

  bool mov(PtxType type, const std::vector<Operand> &ops) {
    if (ops.size() != 2) return fail("inline PTX 'mov' takes 2 operands");
    const Operand &to = ops[0], &from = ops[1];
    if (to.kind == Operand::Vector) {  // unpack: mov.b64 {lo, hi}, x
      Value *whole = read(from, type.bits);
      unsigned part = type.bits / to.parts.size();
      for (size_t n = 0; whole && n < to.parts.size(); n++)
        if (!write(to.parts[n], builder_.CreateTrunc(builder_.CreateLShr(whole, n * part), int_type(part))))
          return false;
      return whole != nullptr;
    }
    if (from.kind == Operand::Vector) {  // pack: mov.b64 x, {lo, hi}
      unsigned part = type.bits / from.parts.size();
      Value *whole = ConstantInt::get(int_type(type.bits), 0);
      for (size_t n = 0; n < from.parts.size(); n++) {
        Value *piece = read(from.parts[n], part);
        if (!piece) return false;
        whole = builder_.CreateOr(whole, builder_.CreateShl(builder_.CreateZExt(piece, whole->getType()), n * part));
      }
      return write(to, whole);
    }
    Value *value = read(from, type.bits, type.is_signed());
    return value && write(to, value, type.is_signed());
  }

  // shfl{.sync}.mode.b32 d{|p}, a, b, c{, mask}
  bool shfl(ArrayRef<StringRef> mods, const std::vector<Operand> &ops) {
    bool sync = is_contained(mods, "sync");
    unsigned mode = 4;
    for (StringRef mod : mods) mode = StringSwitch<unsigned>(mod).Case("up", 0).Case("down", 1).Case("bfly", 2)
                                          .Case("idx", 3).Default(mode);
    if (mode == 4 || ops.size() != (sync ? 5u : 4u)) return fail(unsupported("shfl." + join(mods, ".")));
    Value *mask = sync ? read(ops[4], 32) : builder_.getInt32(~0u);
    Value *a = read(ops[1], 32), *b = read(ops[2], 32), *c = read(ops[3], 32);
    if (!mask || !a || !b || !c) return false;
    Value *both = helper("shfl", {builder_.getInt32(mode), builder_.getInt32(sync), mask, a, b, c});
    if (!both) return false;
    Value *value = builder_.CreateTrunc(both, int_type(32));
    Value *inside = builder_.CreateTrunc(builder_.CreateLShr(both, 32), int_type(1));
    if (ops[0].kind != Operand::Pair) return write(ops[0], value);
    return write(ops[0].parts[0], value) && write(ops[0].parts[1], inside);
  }

  // vote{.sync}.mode.type d, {!}a{, mask}
  bool vote(ArrayRef<StringRef> mods, PtxType type, const std::vector<Operand> &ops) {
    bool sync = is_contained(mods, "sync");
    unsigned mode = 4;
    for (StringRef mod : mods) mode = StringSwitch<unsigned>(mod).Case("ballot", 0).Case("any", 1).Case("all", 2)
                                          .Case("uni", 3).Default(mode);
    if (mode == 4 || ops.size() != (sync ? 3u : 2u)) return fail(unsupported("vote." + join(mods, ".")));
    Value *predicate = read(ops[1], 1), *mask = sync ? read(ops[2], 32) : builder_.getInt32(~0u);
    if (!predicate || !mask) return false;
    Value *result = helper("vote", {builder_.getInt32(mode), builder_.getInt32(sync), mask, predicate});
    if (!result) return false;
    return write(ops[0], type.kind == 'p' ? builder_.CreateICmpNE(result, builder_.getInt32(0)) : result);
  }

  // match.any.sync.type d, a, mask; match.all.sync.type d{|p}, a, mask
  bool match(ArrayRef<StringRef> mods, PtxType type, const std::vector<Operand> &ops) {
    bool any = is_contained(mods, "any");
    if (ops.size() != 3 || (!any && !is_contained(mods, "all"))) return fail(unsupported("match." + join(mods, ".")));
    Value *value = read(ops[1], type.bits), *mask = read(ops[2], 32);
    if (!value || !mask) return false;
    Value *result = helper(any ? "match_any" : "match_all", {mask, value});
    if (!result) return false;
    Value *lanes = builder_.CreateTrunc(result, int_type(32));
    if (ops[0].kind != Operand::Pair) return write(ops[0], lanes);
    return write(ops[0].parts[0], lanes) &&
           write(ops[0].parts[1], builder_.CreateTrunc(builder_.CreateLShr(result, 32), int_type(1)));
  }

  // redux.sync.op.type d, a, mask
  bool redux(ArrayRef<StringRef> mods, PtxType type, const std::vector<Operand> &ops) {
    unsigned op = 8;
    for (StringRef mod : mods)
      op = StringSwitch<unsigned>(mod).Case("add", 0).Case("min", type.is_signed() ? 1 : 2)
               .Case("max", type.is_signed() ? 3 : 4).Case("and", 5).Case("or", 6).Case("xor", 7).Default(op);
    if (op == 8 || ops.size() != 3 || type.bits != 32) return fail(unsupported("redux." + join(mods, ".")));
    return call_helper(ops[0], "redux", {builder_.getInt32(op), read(ops[2], 32), read(ops[1], 32)});
  }

  // The ordering of ld, st, atom and red: .relaxed, .acquire, .release,
  // .acq_rel, .sc; none (a weak access) for an atom is relaxed.
  AtomicOrdering ordering(ArrayRef<StringRef> mods, AtomicOrdering weak) {
    for (StringRef mod : mods) {
      if (mod == "relaxed") return AtomicOrdering::Monotonic;
      if (mod == "acquire") return AtomicOrdering::Acquire;
      if (mod == "release") return AtomicOrdering::Release;
      if (mod == "acq_rel") return AtomicOrdering::AcquireRelease;
      if (mod == "sc") return AtomicOrdering::SequentiallyConsistent;
    }
    return weak;
  }

  unsigned vector_size(ArrayRef<StringRef> mods) {
    for (StringRef mod : mods)
      if (mod == "v2" || mod == "v4" || mod == "v8") return mod.back() - '0';
    return 1;
  }

  // ld{.sem.scope}{.space}{.cache...}{.vN}.type d, [a]: a plain load
  // (volatile for .volatile, atomic for .relaxed and .acquire).  A vector
  // with no ordering is one load of the whole, aligned to its size as PTX
  // requires: another block's thread never sees half of a vector store
  // (CUB's tile states pack a status and its value in one).
  bool load(ArrayRef<StringRef> mods, PtxType type, const std::vector<Operand> &ops) {
    if (ops.size() != 2) return fail("inline PTX 'ld' takes 2 operands");
    unsigned elements = vector_size(mods);
    if ((elements > 1) != (ops[0].kind == Operand::Vector) || (elements > 1 && ops[0].parts.size() != elements))
      return fail("inline PTX 'ld' needs a vector of " + std::to_string(elements) + " registers");
    AtomicOrdering order = ordering(mods, AtomicOrdering::NotAtomic);
    bool is_volatile = is_contained(mods, "volatile") || is_contained(mods, "mmio");
    Value *pointer = address(ops[1]);
    if (!pointer) return false;
    if (elements > 1 && order == AtomicOrdering::NotAtomic) {
      auto *vector = FixedVectorType::get(int_type(type.bits), elements);
      Value *whole = builder_.CreateAlignedLoad(vector, pointer, Align(elements * type.bits / 8), is_volatile);
      for (unsigned n = 0; n < elements; n++)
        if (!write(ops[0].parts[n], builder_.CreateExtractElement(whole, n), type.is_signed())) return false;
      return true;
    }
    for (unsigned n = 0; n < elements; n++) {
      Value *at = n ? builder_.CreateGEP(builder_.getInt8Ty(), pointer, builder_.getInt64(n * type.bits / 8)) : pointer;
      LoadInst *loaded = builder_.CreateAlignedLoad(int_type(type.bits), at, Align(type.bits / 8), is_volatile);
      if (order != AtomicOrdering::NotAtomic) loaded->setAtomic(order);
      if (!write(elements > 1 ? ops[0].parts[n] : ops[0], loaded, type.is_signed())) return false;
    }
    return true;
  }

  bool store(ArrayRef<StringRef> mods, PtxType type, const std::vector<Operand> &ops) {
    if (ops.size() != 2) return fail("inline PTX 'st' takes 2 operands");
    unsigned elements = vector_size(mods);
    if ((elements > 1) != (ops[1].kind == Operand::Vector) || (elements > 1 && ops[1].parts.size() != elements))
      return fail("inline PTX 'st' needs a vector of " + std::to_string(elements) + " values");
    AtomicOrdering order = ordering(mods, AtomicOrdering::NotAtomic);
    bool is_volatile = is_contained(mods, "volatile") || is_contained(mods, "mmio");
    Value *pointer = address(ops[0]);
    if (!pointer) return false;
    if (elements > 1 && order == AtomicOrdering::NotAtomic) {  // one store of the whole, as in load()
      Value *whole = PoisonValue::get(FixedVectorType::get(int_type(type.bits), elements));
      for (unsigned n = 0; n < elements; n++) {
        Value *value = read(ops[1].parts[n], type.bits);
        if (!value) return false;
        whole = builder_.CreateInsertElement(whole, value, n);
      }
      builder_.CreateAlignedStore(whole, pointer, Align(elements * type.bits / 8), is_volatile);
      return true;
    }
    for (unsigned n = 0; n < elements; n++) {
      Value *value = read(elements > 1 ? ops[1].parts[n] : ops[1], type.bits);
      if (!value) return false;
      Value *at = n ? builder_.CreateGEP(builder_.getInt8Ty(), pointer, builder_.getInt64(n * type.bits / 8)) : pointer;
      StoreInst *stored = builder_.CreateAlignedStore(value, at, Align(type.bits / 8), is_volatile);
      if (order != AtomicOrdering::NotAtomic) stored->setAtomic(order);
    }
    return true;
  }

  // atom{.sem}{.scope}{.space}.op.type d, [a], b{, c}; red: no d.
  bool atomic(bool reduction, ArrayRef<StringRef> mods, PtxType type, const std::vector<Operand> &ops) {
    using Op = AtomicRMWInst::BinOp;
    std::optional<Op> op;
    bool cas = false;
    for (StringRef mod : mods) {
      if (mod == "cas") cas = true;
      auto found = StringSwitch<std::optional<Op>>(mod)
                       .Case("add", type.is_float() ? Op::FAdd : Op::Add)
                       .Case("min", type.is_float() ? Op::FMin : type.is_signed() ? Op::Min : Op::UMin)
                       .Case("max", type.is_float() ? Op::FMax : type.is_signed() ? Op::Max : Op::UMax)
                       .Case("exch", Op::Xchg).Case("and", Op::And).Case("or", Op::Or).Case("xor", Op::Xor)
                       .Case("inc", Op::UIncWrap).Case("dec", Op::UDecWrap)
                       .Default(std::nullopt);
      if (found) op = found;
    }
    size_t first = reduction ? 0 : 1;
    if ((!op && !cas) || ops.size() != first + (cas ? 3 : 2) || type.bits < 16)
      return fail(unsupported((reduction ? "red." : "atom.") + join(mods, ".")));
    AtomicOrdering order = ordering(mods, AtomicOrdering::Monotonic);
    Value *pointer = address(ops[first]);
    Value *b = type.is_float() && op ? read_float(ops[first + 1], type.bits) : read(ops[first + 1], type.bits);
    if (!pointer || !b) return false;
    Value *old;
    if (cas) {
      Value *c = read(ops[first + 2], type.bits);
      if (!c) return false;
      AtomicOrdering failure = AtomicCmpXchgInst::getStrongestFailureOrdering(order);
      old = builder_.CreateExtractValue(
          builder_.CreateAtomicCmpXchg(pointer, b, c, Align(type.bits / 8), order, failure), 0);
    } else {
      old = builder_.CreateAtomicRMW(*op, pointer, b, Align(type.bits / 8), order);
    }
    return reduction || write(ops[0], old);
  }

  // setp.cmp{.bool}.type p{|q}, a, b{, {!}c}; set.cmp{.bool}.dtype.stype d, a, b{, {!}c}
  bool compare(bool set, ArrayRef<StringRef> mods, ArrayRef<PtxType> types, const std::vector<Operand> &ops) {
    if (mods.empty() || types.empty() || (set && types.size() != 2)) return fail(unsupported(set ? "set" : "setp"));
    PtxType type = types.back();
    using P = CmpInst::Predicate;
    bool sign = type.is_signed();
    std::optional<P> predicate =
        type.is_float()
            ? StringSwitch<std::optional<P>>(mods[0]).Case("eq", P::FCMP_OEQ).Case("ne", P::FCMP_ONE)
                  .Case("lt", P::FCMP_OLT).Case("le", P::FCMP_OLE).Case("gt", P::FCMP_OGT).Case("ge", P::FCMP_OGE)
                  .Case("equ", P::FCMP_UEQ).Case("neu", P::FCMP_UNE).Case("ltu", P::FCMP_ULT)
                  .Case("leu", P::FCMP_ULE).Case("gtu", P::FCMP_UGT).Case("geu", P::FCMP_UGE)
                  .Case("num", P::FCMP_ORD).Case("nan", P::FCMP_UNO).Default(std::nullopt)
            : StringSwitch<std::optional<P>>(mods[0]).Case("eq", P::ICMP_EQ).Case("ne", P::ICMP_NE)
                  .Case("lt", sign ? P::ICMP_SLT : P::ICMP_ULT).Case("le", sign ? P::ICMP_SLE : P::ICMP_ULE)
                  .Case("gt", sign ? P::ICMP_SGT : P::ICMP_UGT).Case("ge", sign ? P::ICMP_SGE : P::ICMP_UGE)
                  .Case("lo", P::ICMP_ULT).Case("ls", P::ICMP_ULE).Case("hi", P::ICMP_UGT).Case("hs", P::ICMP_UGE)
                  .Default(std::nullopt);
    std::optional<Instruction::BinaryOps> combine;
    for (StringRef mod : mods.drop_front())
      combine = StringSwitch<std::optional<Instruction::BinaryOps>>(mod).Case("and", Instruction::And)
                    .Case("or", Instruction::Or).Case("xor", Instruction::Xor).Default(combine);
    if (!predicate || ops.size() != (combine ? 4u : 3u)) return fail(unsupported((set ? "set." : "setp.") + mods[0]));
    Value *a = type.is_float() ? read_float(ops[1], type.bits) : read(ops[1], type.bits, sign);
    Value *b = type.is_float() ? read_float(ops[2], type.bits) : read(ops[2], type.bits, sign);
    Value *c = combine ? read(ops[3], 1) : nullptr;
    if (!a || !b || (combine && !c)) return false;
    Value *holds = builder_.CreateCmp(*predicate, a, b), *fails = builder_.CreateNot(holds);
    if (combine) {
      holds = builder_.CreateBinOp(*combine, holds, c);
      fails = builder_.CreateBinOp(*combine, fails, c);
    }
    if (set) {
      PtxType to = types[0];
      Value *result = to.is_float() ? builder_.CreateUIToFP(holds, float_type(to.bits))
                                    : builder_.CreateSExt(holds, int_type(to.bits));
      return write(ops[0], result);
    }
    if (ops[0].kind != Operand::Pair) return write(ops[0], holds);
    return write(ops[0].parts[0], holds) && write(ops[0].parts[1], fails);
  }

  // cvt{.irnd|.frnd}{.ftz}{.sat}.dtype.atype d, a
  bool convert(ArrayRef<StringRef> mods, ArrayRef<PtxType> types, const std::vector<Operand> &ops) {
    if (types.size() != 2 || ops.size() != 2) return fail(unsupported("cvt." + join(mods, ".")));
    PtxType to = types[0], from = types[1];
    std::optional<Intrinsic::ID> rounding;
    for (StringRef mod : mods)
      rounding = StringSwitch<std::optional<Intrinsic::ID>>(mod).Case("rni", Intrinsic::rint)
                     .Case("rzi", Intrinsic::trunc).Case("rmi", Intrinsic::floor).Case("rpi", Intrinsic::ceil)
                     .Default(rounding);
    Value *result;
    if (!from.is_float() && !to.is_float()) {
      Value *value = read(ops[1], from.bits, from.is_signed());
      if (!value) return false;
      if (is_contained(mods, "sat")) {  // clamped to the destination's range, in a width holding both
        IntegerType *wide = int_type(65);
        value = resize(value, 65, from.is_signed());
        APInt low = to.is_signed() ? APInt::getSignedMinValue(to.bits) : APInt::getMinValue(to.bits);
        APInt high = to.is_signed() ? APInt::getSignedMaxValue(to.bits) : APInt::getMaxValue(to.bits);
        value = builder_.CreateBinaryIntrinsic(
            Intrinsic::smax, value, ConstantInt::get(wide, to.is_signed() ? low.sext(65) : low.zext(65)));
        value = builder_.CreateBinaryIntrinsic(
            Intrinsic::smin, value, ConstantInt::get(wide, to.is_signed() ? high.sext(65) : high.zext(65)));
      }
      result = resize(value, to.bits, from.is_signed());
      return write(ops[0], result, to.is_signed());
    }
    Value *value = from.is_float() ? read_float(ops[1], from.bits) : read(ops[1], from.bits, from.is_signed());
    if (!value) return false;
    if (from.is_float() && rounding) value = builder_.CreateUnaryIntrinsic(*rounding, value);
    if (!to.is_float()) {  // saturating, as PTX's conversions to integers are
      Intrinsic::ID saturate = to.is_signed() ? Intrinsic::fptosi_sat : Intrinsic::fptoui_sat;
      result = builder_.CreateIntrinsic(saturate, {int_type(to.bits), value->getType()}, {value});
      return write(ops[0], result, to.is_signed());
    }
    Type *target = float_type(to.bits);
    if (!from.is_float()) result = from.is_signed() ? builder_.CreateSIToFP(value, target)
                                                    : builder_.CreateUIToFP(value, target);
    else result = builder_.CreateFPCast(value, target);
    if (is_contained(mods, "sat")) {
      result = builder_.CreateMaxNum(result, ConstantFP::get(target, 0.0));
      result = builder_.CreateMinNum(result, ConstantFP::get(target, 1.0));
    }
    return write(ops[0], result);
  }

  // lop3.b32 d, a, b, c, lut: bit i of d is bit (a_i b_i c_i, in binary) of lut.
  bool lop3(const std::vector<Operand> &ops) {
    if (ops.size() != 5) return fail("inline PTX 'lop3.b32' takes 5 operands");
    Value *a = read(ops[1], 32), *b = read(ops[2], 32), *c = read(ops[3], 32), *lut = read(ops[4], 8);
    if (!a || !b || !c || !lut) return false;
    auto *table = dyn_cast<ConstantInt>(lut);
    if (!table) return fail("inline PTX 'lop3.b32' needs a constant truth table");
    Value *result = builder_.getInt32(0);
    for (unsigned row = 0; row < 8; row++) {
      if (!((table->getZExtValue() >> row) & 1)) continue;
      Value *x = row & 4 ? a : builder_.CreateNot(a), *y = row & 2 ? b : builder_.CreateNot(b);
      Value *z = row & 1 ? c : builder_.CreateNot(c);
      result = builder_.CreateOr(result, builder_.CreateAnd(builder_.CreateAnd(x, y), z));
    }
    return write(ops[0], result);
  }

  // The low `count` bits set (count up to `bits`).
  Value *low_mask(Value *count, unsigned bits) {
    Type *type = count->getType();
    Value *all = ConstantInt::getAllOnesValue(type);
    Value *clamped = builder_.CreateAnd(count, ConstantInt::get(type, bits - 1));
    Value *some = builder_.CreateSub(builder_.CreateShl(ConstantInt::get(type, 1), clamped), ConstantInt::get(type, 1));
    return builder_.CreateSelect(builder_.CreateICmpUGE(count, ConstantInt::get(type, bits)), all, some);
  }

  // bfe.type d, a, pos, len: len bits of a from pos, filled above with 0
  // (.u) or the last bit taken (.s); pos and len are their low 8 bits.
  bool bit_field_extract(PtxType type, const std::vector<Operand> &ops) {
    if (ops.size() != 4) return fail("inline PTX 'bfe' takes 4 operands");
    unsigned bits = type.bits;
    Value *a = read(ops[1], bits), *pos = read(ops[2], 32), *len = read(ops[3], 32);
    if (!a || !pos || !len) return false;
    Type *wide = a->getType();
    pos = builder_.CreateZExtOrTrunc(builder_.CreateAnd(pos, 0xff), wide);
    len = builder_.CreateZExtOrTrunc(builder_.CreateAnd(len, 0xff), wide);
    Value *width = ConstantInt::get(wide, bits), *last = ConstantInt::get(wide, bits - 1);
    Value *outside = builder_.CreateICmpUGE(pos, width);
    Value *shifted = builder_.CreateSelect(outside, ConstantInt::get(wide, 0),
                                           builder_.CreateLShr(a, builder_.CreateAnd(pos, last)));
    Value *available = builder_.CreateSelect(outside, ConstantInt::get(wide, 0), builder_.CreateSub(width, pos));
    Value *taken = builder_.CreateBinaryIntrinsic(Intrinsic::umin, len, available);
    Value *mask = low_mask(taken, bits);
    Value *field = builder_.CreateAnd(shifted, mask);
    if (!type.is_signed()) return write(ops[0], field);
    Value *top = builder_.CreateBinaryIntrinsic(
        Intrinsic::umin, builder_.CreateSub(builder_.CreateAdd(pos, len), ConstantInt::get(wide, 1)), last);
    Value *sign = builder_.CreateAnd(builder_.CreateLShr(a, top), ConstantInt::get(wide, 1));
    sign = builder_.CreateAnd(builder_.CreateICmpNE(sign, ConstantInt::get(wide, 0)),
                              builder_.CreateICmpNE(len, ConstantInt::get(wide, 0)));
    Value *fill = builder_.CreateSelect(sign, builder_.CreateNot(mask), ConstantInt::get(wide, 0));
    return write(ops[0], builder_.CreateOr(field, fill));
  }

  // bfi.type d, f, b, pos, len: b with len bits from pos replaced by f's low ones.
  bool bit_field_insert(PtxType type, const std::vector<Operand> &ops) {
    if (ops.size() != 5) return fail("inline PTX 'bfi' takes 5 operands");
    unsigned bits = type.bits;
    Value *f = read(ops[1], bits), *b = read(ops[2], bits), *pos = read(ops[3], 32), *len = read(ops[4], 32);
    if (!f || !b || !pos || !len) return false;
    Type *wide = b->getType();
    pos = builder_.CreateZExtOrTrunc(builder_.CreateAnd(pos, 0xff), wide);
    len = builder_.CreateZExtOrTrunc(builder_.CreateAnd(len, 0xff), wide);
    Value *shift = builder_.CreateAnd(pos, ConstantInt::get(wide, bits - 1));
    Value *mask = builder_.CreateShl(low_mask(len, bits), shift);
    Value *inserted = builder_.CreateOr(builder_.CreateAnd(b, builder_.CreateNot(mask)),
                                        builder_.CreateAnd(builder_.CreateShl(f, shift), mask));
    return write(ops[0], builder_.CreateSelect(builder_.CreateICmpUGE(pos, ConstantInt::get(wide, bits)), b, inserted));
  }

  // prmt.b32 d, a, b, c: byte i of d is byte (c >> 4i) & 7 of b:a, or that
  // byte's sign replicated when (c >> 4i) & 8.
  bool permute(const std::vector<Operand> &ops) {
    if (ops.size() != 4) return fail("inline PTX 'prmt.b32' takes 4 operands");
    Value *a = read(ops[1], 64), *b = read(ops[2], 64), *c = read(ops[3], 32);
    if (!a || !b || !c) return false;
    Value *bytes = builder_.CreateOr(a, builder_.CreateShl(b, 32));
    Value *result = builder_.getInt32(0);
    for (unsigned n = 0; n < 4; n++) {
      Value *select = builder_.CreateLShr(c, 4 * n);
      Value *index = builder_.CreateZExt(builder_.CreateAnd(select, 7), int_type(64));
      Value *byte = builder_.CreateTrunc(builder_.CreateLShr(bytes, builder_.CreateMul(index, builder_.getInt64(8))),
                                         int_type(8));
      Value *replicate = builder_.CreateICmpNE(builder_.CreateAnd(select, 8), builder_.getInt32(0));
      Value *sign = builder_.CreateAShr(byte, 7);
      byte = builder_.CreateZExt(builder_.CreateSelect(replicate, sign, byte), int_type(32));
      result = builder_.CreateOr(result, builder_.CreateShl(byte, 8 * n));
    }
    return write(ops[0], result);
  }

  // The scalar video instructions, vop.dtype.atype.btype{.sat}{.op2} d, a, b{, c}:
  // a and b extended as their types say, the operation in 64 bits (a shift's
  // amount clamped to 32 or wrapped), saturated to dtype, then op2 with c.
  bool video(StringRef base, ArrayRef<StringRef> mods, ArrayRef<PtxType> types, const std::vector<Operand> &ops) {
    std::optional<StringRef> second;
    for (StringRef mod : mods)
      if (mod == "add" || mod == "min" || mod == "max") second = mod;
    if (types.size() != 3 || ops.size() != (second ? 4u : 3u) || types[0].bits != 32)
      return fail(unsupported(base.str() + "." + join(mods, ".")));
    PtxType d = types[0], at = types[1], bt = types[2];
    Value *a = read(ops[1], at.bits), *b = read(ops[2], bt.bits);
    if (!a || !b) return false;
    a = resize(a, 64, at.is_signed());
    Value *t;
    if (base == "vshl" || base == "vshr") {
      Value *amount = builder_.CreateZExt(b, int_type(64));
      Value *clamped = builder_.CreateBinaryIntrinsic(Intrinsic::umin, amount, builder_.getInt64(32));
      amount = is_contained(mods, "wrap") ? builder_.CreateAnd(amount, 31) : clamped;
      t = base == "vshl" ? builder_.CreateShl(a, amount)
                         : at.is_signed() ? builder_.CreateAShr(a, amount) : builder_.CreateLShr(a, amount);
    } else {
      b = resize(b, 64, bt.is_signed());
      t = video_operation(base, a, b);
    }
    if (is_contained(mods, "sat")) {
      int64_t low = d.is_signed() ? INT32_MIN : 0, high = d.is_signed() ? INT32_MAX : UINT32_MAX;
      t = builder_.CreateBinaryIntrinsic(Intrinsic::smax, t, builder_.getInt64(low));
      t = builder_.CreateBinaryIntrinsic(Intrinsic::smin, t, builder_.getInt64(high));
    }
    if (second) {
      Value *c = read(ops[3], 32);
      if (!c) return false;
      t = builder_.CreateTrunc(t, int_type(32));
      Intrinsic::ID pick = *second == "min" ? (d.is_signed() ? Intrinsic::smin : Intrinsic::umin)
                                            : (d.is_signed() ? Intrinsic::smax : Intrinsic::umax);
      t = *second == "add" ? builder_.CreateAdd(t, c) : builder_.CreateBinaryIntrinsic(pick, t, c);
    }
    return write(ops[0], builder_.CreateTrunc(t, int_type(32)));
  }

  // A video instruction's operation (`base`, its lanes' suffix aside) on
  // two values widened to 64 bits.
  Value *video_operation(StringRef base, Value *a, Value *b) {
    base = base.rtrim("24");
    return base == "vadd"   ? builder_.CreateAdd(a, b)
           : base == "vsub" ? builder_.CreateSub(a, b)
           : base == "vmin" ? builder_.CreateBinaryIntrinsic(Intrinsic::smin, a, b)
           : base == "vmax" ? builder_.CreateBinaryIntrinsic(Intrinsic::smax, a, b)
                            : builder_.CreateBinaryIntrinsic(Intrinsic::abs, builder_.CreateSub(a, b), builder_.getFalse());
  }

  // The SIMD video instructions (vadd4, vabsdiff4, ... on four bytes, vadd2
  // ... on two halves of 32 bits): each lane's operation on the lanes of a
  // and b (signed or not as their types), saturated to the lane's width with
  // .sat; with .add, d is c plus the lanes' results, else d holds each
  // lane's result (every lane: masks and lane selectors are refused).
  bool video_lanes(StringRef base, ArrayRef<StringRef> mods, ArrayRef<PtxType> types, const std::vector<Operand> &ops) {
    bool add = is_contained(mods, "add");
    for (StringRef mod : mods)
      if (mod != "add" && mod != "sat" && !parse_type(mod)) return fail(unsupported(base.str() + "." + join(mods, ".")));
    if (types.size() != 3 || ops.size() != 4 || types[0].bits != 32 || types[1].bits != 32 || types[2].bits != 32)
      return fail(unsupported(base.str() + "." + join(mods, ".")));
    unsigned lanes = base.back() == '4' ? 4 : 2, width = 32 / lanes;
    Value *a = read(ops[1], 32), *b = read(ops[2], 32), *c = read(ops[3], 32);
    if (!a || !b || !c) return false;
    auto lane = [&](Value *word, unsigned n, bool is_signed) {
      Value *part = builder_.CreateTrunc(builder_.CreateLShr(word, n * width), int_type(width));
      return resize(part, 64, is_signed);
    };
    Value *result = add ? builder_.CreateZExt(c, int_type(64)) : builder_.getInt64(0);
    for (unsigned n = 0; n < lanes; n++) {
      Value *t = video_operation(base, lane(a, n, types[1].is_signed()), lane(b, n, types[2].is_signed()));
      if (add) {
        result = builder_.CreateAdd(result, t);
        continue;
      }
      if (is_contained(mods, "sat")) {
        int64_t low = types[0].is_signed() ? -(int64_t{1} << (width - 1)) : 0;
        int64_t high = types[0].is_signed() ? (int64_t{1} << (width - 1)) - 1 : (int64_t{1} << width) - 1;
        t = builder_.CreateBinaryIntrinsic(Intrinsic::smax, t, builder_.getInt64(uint64_t(low)));
        t = builder_.CreateBinaryIntrinsic(Intrinsic::smin, t, builder_.getInt64(uint64_t(high)));
      }
      Value *bits = builder_.CreateAnd(t, builder_.getInt64((uint64_t{1} << width) - 1));
      result = builder_.CreateOr(result, builder_.CreateShl(bits, n * width));
    }
    return write(ops[0], builder_.CreateTrunc(result, int_type(32)));
  }

  bool float_arithmetic(StringRef base, ArrayRef<StringRef> mods, PtxType type, const std::vector<Operand> &ops,
                        bool &known) {
    unsigned bits = type.bits;
    if (!is_contained({"add", "sub", "mul", "div", "min", "max", "fma", "mad", "abs", "neg", "sqrt", "rcp", "rsqrt",
                       "ex2", "lg2", "sin", "cos"},
                      base))
      return known = false;
    SmallVector<Value *, 3> in;
    for (size_t n = 1; n < ops.size(); n++) {
      in.push_back(read_float(ops[n], bits));
      if (!in.back()) return false;
    }
    auto need = [&](size_t wanted) { return in.size() == wanted; };
    Value *result = nullptr;
    if (need(2) && base == "add") result = builder_.CreateFAdd(in[0], in[1]);
    else if (need(2) && base == "sub") result = builder_.CreateFSub(in[0], in[1]);
    else if (need(2) && base == "mul") result = builder_.CreateFMul(in[0], in[1]);
    else if (need(2) && base == "div") result = builder_.CreateFDiv(in[0], in[1]);
    else if (need(2) && base == "min") result = builder_.CreateMinNum(in[0], in[1]);
    else if (need(2) && base == "max") result = builder_.CreateMaxNum(in[0], in[1]);
    else if (need(3) && (base == "fma" || base == "mad"))
      result = builder_.CreateIntrinsic(Intrinsic::fma, {in[0]->getType()}, {in[0], in[1], in[2]});
    else if (need(1) && base == "abs") result = builder_.CreateUnaryIntrinsic(Intrinsic::fabs, in[0]);
    else if (need(1) && base == "neg") result = builder_.CreateFNeg(in[0]);
    else if (need(1) && base == "sqrt") result = builder_.CreateUnaryIntrinsic(Intrinsic::sqrt, in[0]);
    else if (need(1) && base == "rcp") result = builder_.CreateFDiv(ConstantFP::get(in[0]->getType(), 1.0), in[0]);
    else if (need(1) && base == "rsqrt")
      result = builder_.CreateFDiv(ConstantFP::get(in[0]->getType(), 1.0),
                                   builder_.CreateUnaryIntrinsic(Intrinsic::sqrt, in[0]));
    else if (need(1) && base == "ex2") result = builder_.CreateUnaryIntrinsic(Intrinsic::exp2, in[0]);
    else if (need(1) && base == "lg2") result = builder_.CreateUnaryIntrinsic(Intrinsic::log2, in[0]);
    else if (need(1) && base == "sin") result = builder_.CreateUnaryIntrinsic(Intrinsic::sin, in[0]);
    else if (need(1) && base == "cos") result = builder_.CreateUnaryIntrinsic(Intrinsic::cos, in[0]);
    if (!result || ops.empty()) return known = false;
    if (is_contained(mods, "sat")) {
      result = builder_.CreateMaxNum(result, ConstantFP::get(result->getType(), 0.0));
      result = builder_.CreateMinNum(result, ConstantFP::get(result->getType(), 1.0));
    }
    return write(ops[0], result);
  }

  bool integer_arithmetic(StringRef base, ArrayRef<StringRef> mods, PtxType type, const std::vector<Operand> &ops,
                          bool &known) {
    unsigned bits = type.bits;
    bool sign = type.is_signed(), hi = is_contained(mods, "hi"), wide = is_contained(mods, "wide");
    if (is_contained(mods, "cc") ||
        !is_contained({"add", "sub", "mul", "mad", "div", "rem", "min", "max", "abs", "neg", "and", "or", "xor", "not",
                       "cnot", "shl", "shr", "brev", "popc", "clz", "bfind"},
                      base))
      return known = false;
    size_t inputs = ops.empty() ? 0 : ops.size() - 1;
    SmallVector<Value *, 3> in;
    for (size_t n = 1; n < ops.size(); n++) {
      // shl and shr take a 32-bit amount; mad.wide's addend is double width.
      unsigned width = (n == 2 && (base == "shl" || base == "shr")) ? 32 : (n == 3 && wide) ? 2 * bits : bits;
      in.push_back(read(ops[n], width, sign));
      if (!in.back()) return false;
    }
    auto need = [&](size_t wanted) { return inputs == wanted; };
    auto extend = [&](Value *value, unsigned to) { return resize(value, to, sign); };
    Value *result = nullptr;
    if ((base == "mul" || base == "mad") && (hi || wide) && need(base == "mul" ? 2 : 3)) {
      Value *product = builder_.CreateMul(extend(in[0], 2 * bits), extend(in[1], 2 * bits));
      if (wide) result = base == "mad" ? builder_.CreateAdd(product, in[2]) : product;
      else result = builder_.CreateTrunc(builder_.CreateLShr(product, bits), int_type(bits));
      if (!wide && base == "mad") result = builder_.CreateAdd(result, in[2]);
    } else if (need(2) && base == "add") {
      result = is_contained(mods, "sat") && sign ? builder_.CreateBinaryIntrinsic(Intrinsic::sadd_sat, in[0], in[1])
                                                 : builder_.CreateAdd(in[0], in[1]);
    } else if (need(2) && base == "sub") {
      result = is_contained(mods, "sat") && sign ? builder_.CreateBinaryIntrinsic(Intrinsic::ssub_sat, in[0], in[1])
                                                 : builder_.CreateSub(in[0], in[1]);
    } else if (need(2) && base == "mul") {
      result = builder_.CreateMul(in[0], in[1]);
    } else if (need(3) && base == "mad") {
      result = builder_.CreateAdd(builder_.CreateMul(in[0], in[1]), in[2]);
    } else if (need(2) && (base == "div" || base == "rem")) {
      result = divide(base == "div", sign, in[0], in[1]);
    } else if (need(2) && (base == "min" || base == "max")) {
      Intrinsic::ID id = base == "min" ? (sign ? Intrinsic::smin : Intrinsic::umin)
                                       : (sign ? Intrinsic::smax : Intrinsic::umax);
      result = builder_.CreateBinaryIntrinsic(id, in[0], in[1]);
    } else if (need(1) && base == "abs") {
      result = builder_.CreateBinaryIntrinsic(Intrinsic::abs, in[0], builder_.getFalse());
    } else if (need(1) && base == "neg") {
      result = builder_.CreateNeg(in[0]);
    } else if (need(2) && (base == "and" || base == "or" || base == "xor")) {
      result = base == "and" ? builder_.CreateAnd(in[0], in[1])
               : base == "or" ? builder_.CreateOr(in[0], in[1])
                              : builder_.CreateXor(in[0], in[1]);
    } else if (need(1) && base == "not") {
      result = builder_.CreateNot(in[0]);
    } else if (need(1) && base == "cnot") {
      result = builder_.CreateZExt(builder_.CreateICmpEQ(in[0], ConstantInt::get(in[0]->getType(), 0)), int_type(bits));
    } else if (need(2) && (base == "shl" || base == "shr")) {
      result = shift(base == "shl", sign, in[0], in[1], bits);
    } else if (need(1) && base == "brev") {
      result = builder_.CreateUnaryIntrinsic(Intrinsic::bitreverse, in[0]);
    } else if (need(1) && base == "popc") {
      result = resize(builder_.CreateUnaryIntrinsic(Intrinsic::ctpop, in[0]), 32, false);
    } else if (need(1) && base == "clz") {
      result = resize(builder_.CreateBinaryIntrinsic(Intrinsic::ctlz, in[0], builder_.getFalse()), 32, false);
    } else if (need(1) && base == "bfind") {
      result = find_top_bit(in[0], sign, bits, is_contained(mods, "shiftamt"));
    }
    if (!result || ops.empty()) return known = false;
    return write(ops[0], result, sign);
  }

  // div and rem with x86's traps avoided: PTX leaves x / 0 undefined, and
  // MIN / -1 wraps.
  Value *divide(bool quotient, bool sign, Value *a, Value *b) {
    Type *type = a->getType();
    Value *zero = ConstantInt::get(type, 0), *one = ConstantInt::get(type, 1);
    Value *minus_one = ConstantInt::getAllOnesValue(type);
    Value *by_zero = builder_.CreateICmpEQ(b, zero);
    Value *by_minus_one = sign ? builder_.CreateICmpEQ(b, minus_one) : builder_.getFalse();
    Value *safe = builder_.CreateSelect(builder_.CreateOr(by_zero, by_minus_one), one, b);
    Value *result = quotient ? (sign ? builder_.CreateSDiv(a, safe) : builder_.CreateUDiv(a, safe))
                             : (sign ? builder_.CreateSRem(a, safe) : builder_.CreateURem(a, safe));
    Value *special = quotient ? builder_.CreateNeg(a) : zero;
    result = builder_.CreateSelect(by_minus_one, special, result);
    return builder_.CreateSelect(by_zero, quotient ? minus_one : a, result);
  }

  // PTX's shifts clamp the amount: by `bits` or more, shl and shr.u give
  // 0, shr.s the sign.
  Value *shift(bool left, bool sign, Value *value, Value *amount, unsigned bits) {
    Value *beyond = builder_.CreateICmpUGE(amount, builder_.getInt32(bits));
    Value *clamped = builder_.CreateZExtOrTrunc(builder_.CreateSelect(beyond, builder_.getInt32(bits - 1), amount),
                                                value->getType());
    if (!left && sign) return builder_.CreateAShr(value, clamped);
    Value *shifted = left ? builder_.CreateShl(value, clamped) : builder_.CreateLShr(value, clamped);
    return builder_.CreateSelect(beyond, ConstantInt::get(value->getType(), 0), shifted);
  }

  // bfind: the position of the highest 1 bit (of a negative signed value,
  // the highest 0), or its distance from the top (.shiftamt); 0xffffffff
  // when there is none.
  Value *find_top_bit(Value *value, bool sign, unsigned bits, bool distance) {
    Type *type = value->getType();
    if (sign)
      value = builder_.CreateSelect(builder_.CreateICmpSLT(value, ConstantInt::get(type, 0)),
                                    builder_.CreateNot(value), value);
    Value *leading = resize(builder_.CreateBinaryIntrinsic(Intrinsic::ctlz, value, builder_.getFalse()), 32, false);
    Value *position = distance ? leading : builder_.CreateSub(builder_.getInt32(bits - 1), leading);
    return builder_.CreateSelect(builder_.CreateICmpEQ(value, ConstantInt::get(type, 0)), builder_.getInt32(~0u),
                                 position);
  }

  // The call's results from the outputs' values; the call goes.
  std::optional<std::string> finish() {
    Type *result_type = call_.getType();
    auto *fields = dyn_cast<StructType>(result_type);
    Value *result = PoisonValue::get(result_type);
    for (unsigned n = 0; n < outputs_; n++) {
      Type *type = fields ? fields->getElementType(n) : result_type;
      Value *value = operands_[n] ? operands_[n] : PoisonValue::get(type);
      if (operands_[n] && value->getType() != type) {
        const DataLayout &layout = module_.getDataLayout();
        unsigned bits = type->isPointerTy() ? layout.getPointerSizeInBits(type->getPointerAddressSpace())
                                            : type->getPrimitiveSizeInBits().getFixedValue();
        value = resize(value, bits, false);
        value = type->isPointerTy() ? builder_.CreateIntToPtr(value, type) : builder_.CreateBitCast(value, type);
      }
      result = fields ? builder_.CreateInsertValue(result, value, n) : value;
    }
    if (!result_type->isVoidTy()) call_.replaceAllUsesWith(result);
    call_.eraseFromParent();
    return std::nullopt;
  }
};

// Every asm call with a PTX template translated, or reported and dropped.
struct TranslateInlinePtx : PassInfoMixin<TranslateInlinePtx> {
  PreservedAnalyses run(Module &module, ModuleAnalysisManager &) {
    std::vector<CallInst *> calls;
    for (Function &function : module)
      for (BasicBlock &block : function)
        for (Instruction &inst : block)
          if (auto *call = dyn_cast<CallInst>(&inst); call && call->isInlineAsm() &&
                                                      is_ptx(cast<InlineAsm>(call->getCalledOperand())->getAsmString()))
            calls.push_back(call);
    for (CallInst *call : calls) {
      if (std::optional<std::string> error = Translator(*call).run()) {
        module.getContext().diagnose(DiagnosticInfoInlineAsm(*call, *error));
        if (!call->getType()->isVoidTy()) call->replaceAllUsesWith(PoisonValue::get(call->getType()));
        call->eraseFromParent();
      }
    }
    // The helpers were kept for this pass only: those unused go now (left
    // at -O0, their calls of undefined warp functions trip AMDGPU's backend).
    removeFromUsedLists(module, [](Constant *value) { return value->getName().starts_with(kHelperPrefix); });
    // So do the header functions only they called, however deep (at -O2,
    // GlobalDCE would): what the helpers reach, erased while unused.
    SmallPtrSet<Function *, 32> reached;
    std::vector<Function *> work;
    for (Function &function : module)
      if (function.getName().starts_with(kHelperPrefix) && function.getName() != kExitMark) work.push_back(&function);
    while (!work.empty()) {
      Function *function = work.back();
      work.pop_back();
      if (!reached.insert(function).second) continue;
      for (Instruction &inst : instructions(*function))
        if (auto *call = dyn_cast<CallBase>(&inst))
          if (Function *callee = call->getCalledFunction(); callee && !callee->isDeclaration()) work.push_back(callee);
    }
    for (bool erased = true; erased;) {
      erased = false;
      for (Function *function : reached) {
        function->removeDeadConstantUsers();  // the old used lists'
        bool helper = function->getName().starts_with(kHelperPrefix);
        if (function->use_empty() && (function->isDiscardableIfUnused() || helper)) {
          reached.erase(function);
          function->eraseFromParent();
          erased = true;
          break;  // the set changed under the loop
        }
      }
    }
    return PreservedAnalyses::none();  // the helpers went, at least from the used lists
  }
};

// PTX's exit, once inlined into its kernel: the lane returns from it, as
// from a `return` there.  In a function that was not inlined the lane
// cannot return from its kernel: it traps there, and the build warns.
struct ExitLanes : PassInfoMixin<ExitLanes> {
  PreservedAnalyses run(Module &module, ModuleAnalysisManager &) {
    Function *mark = module.getFunction(kExitMark);
    if (!mark) return PreservedAnalyses::all();
    std::vector<CallInst *> calls;
    for (User *user : mark->users())
      if (auto *call = dyn_cast<CallInst>(user)) calls.push_back(call);
    for (CallInst *call : calls) {
      Function &function = *call->getFunction();
      BasicBlock *block = call->getParent();
      block->splitBasicBlock(call->getIterator());
      block->getTerminator()->eraseFromParent();
      if (is_kernel(function) && function.getReturnType()->isVoidTy()) {
        ReturnInst::Create(module.getContext(), block);
      } else {
        module.getContext().diagnose(DiagnosticInfoUnsupported(
            function, "inline PTX 'exit' in a device function not inlined into its kernel: a lane reaching it traps",
            call->getDebugLoc(), DS_Warning));
        IRBuilder<> builder(block);
        builder.SetCurrentDebugLocation(call->getDebugLoc());
        builder.CreateIntrinsic(Intrinsic::trap, {}, {});
        builder.CreateUnreachable();
      }
      call->eraseFromParent();  // the rest of its block is unreachable now
    }
    mark->eraseFromParent();
    return PreservedAnalyses::none();
  }
};

}  // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "gpusym-inline-ptx", "1", [](PassBuilder &builder) {
            builder.registerPipelineStartEPCallback(
                [](ModulePassManager &passes, OptimizationLevel) { passes.addPass(TranslateInlinePtx()); });
            // After inlining (always-inlining at -O0), before the fast forms are made.
            builder.registerOptimizerEarlyEPCallback(
                [](ModulePassManager &passes, OptimizationLevel) { passes.addPass(ExitLanes()); });
          }};
}
