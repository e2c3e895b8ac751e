// Kernel signatures: from the driver's descriptor to where each argument goes
// in a System V call, so that a dispatch lays its arguments out once, as the
// registers and stack of the call every lane makes (see call_kernel.S).
//
// Grammar (one descriptor per kernel, parameters separated by ','):
//   p                 pointer (also references, nullptr_t)
//   i8 i16 i32 i64    signed integers;  u8 u16 u32 u64 unsigned integers
//   f32 f64 f80       float, double, long double
//   {S,A:C}           by-value aggregate of S bytes aligned to A, where C is
//                     the System V class of each eightbyte ('I' integer,
//                     'S' SSE) or 'M' when it is passed in memory
//   ?why              a parameter the simulated device cannot pass
#include <cstdlib>
#include <cstring>

#include "internal.h"

namespace gpusym {

namespace {

constexpr uint32_t kIntegerRegisters = 6;  // rdi, rsi, rdx, rcx, r8, r9
constexpr uint32_t kSseRegisters = 8;      // xmm0-xmm7

// One parameter as the ABI sees it: its size and alignment, the class of
// each eightbyte ("M": in memory), and whether a narrow integer is signed.
struct Shape {
  size_t size = 0, align = 0;
  std::string classes;
  bool is_signed = false;
};

bool parameter_shape(const std::string &text, Shape &shape, std::string &error) {
  if (text == "p") {
    shape = {8, 8, "I"};
    return true;
  }
  if (text == "f32" || text == "f64") {
    shape.size = shape.align = text == "f32" ? 4 : 8;
    shape.classes = "S";
    return true;
  }
  if (text == "f80") {  // x87 class: in memory, 16 bytes aligned to 16
    shape = {16, 16, "M"};
    return true;
  }
  if ((text[0] == 'i' || text[0] == 'u') && text.size() > 1) {
    unsigned long bits = strtoul(text.c_str() + 1, nullptr, 10);
    if (bits == 8 || bits == 16 || bits == 32 || bits == 64) {
      shape = {bits / 8, bits / 8, "I", text[0] == 'i'};
      return true;
    }
  }
  if (text[0] == '{' && text.back() == '}') {
    char classes[64] = {};
    if (sscanf(text.c_str(), "{%zu,%zu:%63[ISM]}", &shape.size, &shape.align, classes) == 3) {
      shape.classes = classes;
      if (shape.size == 0 || shape.align == 0 || shape.align > 16 || shape.size % shape.align != 0) {
        error = "aggregate with an impossible layout";
        return false;
      }
      if (shape.classes != "M" && (shape.size > 16 || shape.classes.size() != (shape.size + 7) / 8)) {
        error = "aggregate classes do not match its size";
        return false;
      }
      return true;
    }
  }
  if (text[0] == '?') {
    error = "parameter not supported on the simulated device: " + text.substr(1);
    return false;
  }
  error = "unreadable parameter descriptor '" + text + "'";
  return false;
}

}  // namespace

bool parse_signature(const std::string &descriptor, Signature &out) {
  uint32_t gprs = 0, sses = 0;
  size_t stack = 0;  // bytes of stack arguments so far
  size_t start = 0;
  while (start < descriptor.size()) {
    size_t comma = descriptor.find(',', start);
    // Aggregates contain a comma: the parameter ends at the '}'.
    if (descriptor[start] == '{') comma = descriptor.find('}', start) + 1;
    if (comma == std::string::npos || comma == 0) comma = descriptor.size();
    Shape shape;
    if (!parameter_shape(descriptor.substr(start, comma - start), shape, out.error)) return false;
    start = comma + 1;

    auto param = static_cast<uint32_t>(out.params.size());
    out.params.push_back({shape.size, shape.align});
    uint32_t need_gprs = 0, need_sses = 0;
    if (shape.classes != "M")
      for (char c : shape.classes) (c == 'S' ? need_sses : need_gprs)++;
    // An argument goes wholly in registers, or wholly on the stack.
    if (shape.classes != "M" && gprs + need_gprs <= kIntegerRegisters && sses + need_sses <= kSseRegisters) {
      for (size_t eightbyte = 0; eightbyte < shape.classes.size(); eightbyte++) {
        uint32_t word = shape.classes[eightbyte] == 'S' ? kCallSse + sses++ : kCallGpr + gprs++;
        auto size = static_cast<uint32_t>(std::min<size_t>(8, shape.size - 8 * eightbyte));
        out.moves.push_back({param, static_cast<uint32_t>(8 * eightbyte), 8 * word, size, shape.is_signed});
      }
    } else {
      size_t align = shape.align > 8 ? 16 : 8;
      stack = (stack + align - 1) / align * align;
      out.moves.push_back({param, 0, static_cast<uint32_t>(8 * kCallStack + stack),
                           static_cast<uint32_t>(shape.size), shape.is_signed});
      stack += (shape.size + 7) / 8 * 8;
    }
  }
  out.stack_words = static_cast<uint32_t>((stack + 15) / 16 * 2);  // the stack stays 16-byte aligned
  out.uses_sse = sses > 0;
  return true;
}

std::vector<uint64_t> call_image(const Signature &signature, void **args) {
  std::vector<uint64_t> image(kCallStack + signature.stack_words);
  image[kCallStackWords] = signature.stack_words;
  image[kCallUsesSse] = signature.uses_sse;
  auto *bytes = reinterpret_cast<uint8_t *>(image.data());
  for (const CallMove &move : signature.moves) {
    const auto *from = static_cast<const uint8_t *>(args[move.param]) + move.from;
    if (move.sign_extend) {  // a narrow signed integer, extended to its whole eightbyte
      uint64_t raw = 0;
      memcpy(&raw, from, move.size);
      int shift = 64 - 8 * static_cast<int>(move.size);
      int64_t value = static_cast<int64_t>(raw << shift) >> shift;
      memcpy(bytes + move.to, &value, 8);
    } else {
      memcpy(bytes + move.to, from, move.size);
    }
  }
  return image;
}

}  // namespace gpusym
