// Kernel signatures: from the driver's descriptor to a libffi call interface.
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
#include <deque>

#include "internal.h"

namespace gpusym {

namespace {

ffi_type *integer_type(size_t bytes, bool is_signed) {
  switch (bytes) {
    case 1: return is_signed ? &ffi_type_sint8 : &ffi_type_uint8;
    case 2: return is_signed ? &ffi_type_sint16 : &ffi_type_uint16;
    case 4: return is_signed ? &ffi_type_sint32 : &ffi_type_uint32;
    case 8: return is_signed ? &ffi_type_sint64 : &ffi_type_uint64;
  }
  return nullptr;
}

// Aggregate types live as long as the process (kernels are few, a signature
// is built once per kernel) and are never destroyed: a worker may still be
// calling a kernel while the process exits.
struct AggregateTypes {
  std::mutex mutex;
  std::deque<ffi_type> types;
  std::deque<std::vector<ffi_type *>> elements;
};

AggregateTypes &aggregates() {
  static auto *instance = new AggregateTypes;
  return *instance;
}

// An ffi struct type that System V classifies and lays out like the
// aggregate: one run of elements per eightbyte, of the eightbyte's class.
ffi_type *aggregate_type(size_t size, size_t align, const std::string &classes, std::string &error) {
  if (size == 0 || align == 0 || size % align != 0) {
    error = "aggregate with an impossible layout";
    return nullptr;
  }
  size_t element = align < 8 ? align : 8;
  std::vector<ffi_type *> elements;
  if (classes == "M") {
    for (size_t i = 0; i < size / element; i++) elements.push_back(integer_type(element, false));
  } else {
    if (classes.size() != (size + 7) / 8) {
      error = "aggregate classes do not match its size";
      return nullptr;
    }
    for (size_t eightbyte = 0; eightbyte < classes.size(); eightbyte++) {
      size_t length = std::min<size_t>(8, size - 8 * eightbyte);
      ffi_type *type = classes[eightbyte] == 'S'
                           ? (element == 4 ? &ffi_type_float : &ffi_type_double)
                           : integer_type(element, false);
      if (classes[eightbyte] == 'S' && element < 4) {
        error = "SSE eightbyte with alignment below 4";
        return nullptr;
      }
      for (size_t i = 0; i < length / element; i++) elements.push_back(type);
    }
  }
  elements.push_back(nullptr);
  AggregateTypes &store = aggregates();
  std::lock_guard<std::mutex> lock(store.mutex);
  store.elements.push_back(std::move(elements));
  store.types.push_back(ffi_type{0, 0, FFI_TYPE_STRUCT, store.elements.back().data()});
  return &store.types.back();
}

ffi_type *parameter_type(const std::string &text, std::string &error) {
  if (text == "p") return &ffi_type_pointer;
  if (text == "f32") return &ffi_type_float;
  if (text == "f64") return &ffi_type_double;
  if (text == "f80") return &ffi_type_longdouble;
  if ((text[0] == 'i' || text[0] == 'u') && text.size() > 1) {
    ffi_type *type = integer_type(strtoul(text.c_str() + 1, nullptr, 10) / 8, text[0] == 'i');
    if (type) return type;
  }
  if (text[0] == '{' && text.back() == '}') {
    size_t size = 0, align = 0;
    char classes[64] = {};
    if (sscanf(text.c_str(), "{%zu,%zu:%63[ISM]}", &size, &align, classes) == 3)
      return aggregate_type(size, align, classes, error);
  }
  if (text[0] == '?') {
    error = "parameter not supported on the simulated device: " + text.substr(1);
    return nullptr;
  }
  error = "unreadable parameter descriptor '" + text + "'";
  return nullptr;
}

}  // namespace

bool parse_signature(const std::string &descriptor, Signature &out) {
  size_t start = 0;
  while (start < descriptor.size()) {
    size_t comma = descriptor.find(',', start);
    // Aggregates contain a comma: the parameter ends at the '}'.
    if (descriptor[start] == '{') comma = descriptor.find('}', start) + 1;
    if (comma == std::string::npos || comma == 0) comma = descriptor.size();
    ffi_type *type = parameter_type(descriptor.substr(start, comma - start), out.error);
    if (!type) return false;
    out.params.push_back(type);
    start = comma + 1;
  }
  if (ffi_prep_cif(&out.cif, FFI_DEFAULT_ABI, out.params.size(), &ffi_type_void,
                   out.params.data()) != FFI_OK) {
    out.error = "libffi cannot call this signature";
    return false;
  }
  // After ffi_prep_cif every type has its size and alignment.
  size_t offset = 0;
  for (ffi_type *type : out.params) {
    offset = (offset + type->alignment - 1) / type->alignment * type->alignment;
    out.offsets.push_back(offset);
    offset += type->size;
  }
  out.buffer_size = offset;
  return true;
}

}  // namespace gpusym
