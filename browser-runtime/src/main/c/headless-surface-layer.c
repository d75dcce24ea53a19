/*
 * A Vulkan layer that offers VK_EXT_headless_surface over a driver that lacks it (NVIDIA's, on the GPU hosts this
 * project reaches). ANGLE's headless display (what Chromium's headless shell runs ANGLE on) enables that instance
 * extension and refuses to start without it ("Extension not supported: VK_EXT_headless_surface"), so the GPU process
 * never runs on NVIDIA's device and WebGPU is given SwiftShader's fallback adapter alone. A headless shell draws into
 * offscreen images, never into a window, so the surface is a promise that is not expected to be kept; the layer keeps
 * it as far as the queries go (support, capabilities, formats, present modes, answered as the extension's spec says of
 * a headless surface) and refuses a swapchain on it with VK_ERROR_INITIALIZATION_FAILED, saying so on stderr, so
 * that a lane that does ask for one fails with evidence instead of drawing nothing.
 *
 * Everything else passes to the driver untouched. Built by the build (build.sh beside it) where a C compiler and the
 * Vulkan headers are present, carried in browser-runtime's jar, unpacked into Accelbridge's cache and verified at every
 * use (HeadlessSurface); an implicit layer enabled only where ACCELBRIDGE_HEADLESS_SURFACE=1, which Accelbridge sets for
 * a browser process that seeks the GPU's adapter on a driver without the extension, never globally.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vulkan/vk_layer.h>
#include <vulkan/vulkan.h>

#define LAYER_NAME "VK_LAYER_ACCELBRIDGE_headless_surface"
#define EXPORT __attribute__((visibility("default")))

/* what the layer keeps of an instance: the next layer's entry points it calls for a surface that is not its own */
typedef struct {
  void *key;
  VkInstance instance;
  PFN_vkGetInstanceProcAddr gipa;
  PFN_vkDestroyInstance destroy;
  PFN_vkDestroySurfaceKHR destroySurface;
  PFN_vkGetPhysicalDeviceSurfaceSupportKHR support;
  PFN_vkGetPhysicalDeviceSurfaceCapabilitiesKHR caps;
  PFN_vkGetPhysicalDeviceSurfaceFormatsKHR formats;
  PFN_vkGetPhysicalDeviceSurfacePresentModesKHR modes;
  PFN_vkGetPhysicalDeviceSurfaceCapabilities2KHR caps2;
  PFN_vkGetPhysicalDeviceSurfaceFormats2KHR formats2;
  PFN_vkGetPhysicalDevicePresentRectanglesKHR rects;
} Instance;

typedef struct {
  void *key;
  PFN_vkGetDeviceProcAddr gdpa;
  PFN_vkDestroyDevice destroy;
  PFN_vkCreateSwapchainKHR createSwapchain;
  PFN_vkGetDeviceGroupSurfacePresentModesKHR groupModes;
} Device;

#define MAX_OBJECTS 64
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static Instance instances[MAX_OBJECTS];
static Device devices[MAX_OBJECTS];
static VkSurfaceKHR surfaces[MAX_OBJECTS]; /* the surfaces this layer made (0: a free slot) */

static void *key_of(const void *dispatchable) { return *(void *const *)dispatchable; }

/* a slot's placeholder while its object is being made: taken, not yet callable */
#define RESERVED ((void *)1)

static Instance *instance_exact(const void *dispatchable) {
  void *key = key_of(dispatchable);
  for (int i = 0; i < MAX_OBJECTS; i++)
    if (instances[i].key == key) return &instances[i];
  return NULL;
}

/* for a call to pass down: a physical device's dispatch key is its instance's, and the entry points below this layer
   are the loader's terminators, the same for every instance, so any instance's serve where the key is not found */
static Instance *instance_for(const void *dispatchable) {
  Instance *it = instance_exact(dispatchable);
  for (int i = 0; i < MAX_OBJECTS && !it; i++)
    if (instances[i].key && instances[i].key != RESERVED) it = &instances[i];
  return it;
}

/* the next layer's entry point FIELD for DISPATCHABLE's instance, read under the lock (a destroy clears slots: found when
   read, slots were read outside the lock while a destroy could clear them); NULL where there is none */
#define NEXT_INSTANCE(field, dispatchable, out)             \
  do {                                                      \
    pthread_mutex_lock(&lock);                              \
    Instance *found_ = instance_for(dispatchable);          \
    (out) = found_ ? found_->field : NULL;                  \
    pthread_mutex_unlock(&lock);                            \
  } while (0)

#define NEXT_DEVICE(field, dispatchable, out)               \
  do {                                                      \
    pthread_mutex_lock(&lock);                              \
    Device *found_ = device_for(dispatchable);              \
    (out) = found_ ? found_->field : NULL;                  \
    pthread_mutex_unlock(&lock);                            \
  } while (0)

static Device *device_for(const void *dispatchable) {
  void *key = key_of(dispatchable);
  for (int i = 0; i < MAX_OBJECTS; i++)
    if (devices[i].key == key) return &devices[i];
  return NULL;
}

static int ours(VkSurfaceKHR surface) {
  if (surface == VK_NULL_HANDLE) return 0;
  pthread_mutex_lock(&lock);
  int found = 0;
  for (int i = 0; i < MAX_OBJECTS && !found; i++) found = surfaces[i] == surface;
  pthread_mutex_unlock(&lock);
  return found;
}

/* the layer's own allocations go through the application's callbacks where it gave them, as the spec asks of a layer */
static void *layer_alloc(const VkAllocationCallbacks *alloc, size_t size) {
  if (alloc && alloc->pfnAllocation)
    return alloc->pfnAllocation(alloc->pUserData, size, sizeof(void *), VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
  return malloc(size);
}

static void layer_free(const VkAllocationCallbacks *alloc, void *p) {
  if (alloc && alloc->pfnFree) alloc->pfnFree(alloc->pUserData, p);
  else free(p);
}

static VKAPI_ATTR VkResult VKAPI_CALL CreateInstance(const VkInstanceCreateInfo *info, const VkAllocationCallbacks *alloc,
                                                     VkInstance *out) {
  VkLayerInstanceCreateInfo *link = (VkLayerInstanceCreateInfo *)info->pNext;
  while (link && !(link->sType == VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO && link->function == VK_LAYER_LINK_INFO))
    link = (VkLayerInstanceCreateInfo *)link->pNext;
  if (!link) return VK_ERROR_INITIALIZATION_FAILED;
  PFN_vkGetInstanceProcAddr gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  link->u.pLayerInfo = link->u.pLayerInfo->pNext;
  PFN_vkCreateInstance create = (PFN_vkCreateInstance)gipa(VK_NULL_HANDLE, "vkCreateInstance");
  if (!create) return VK_ERROR_INITIALIZATION_FAILED;

  /* a slot first: an instance past the layer's slots is refused, never made and left untracked (found when read: the
     65th was created, and every later call through it found no slot and called through NULL) */
  Instance *it = NULL;
  pthread_mutex_lock(&lock);
  for (int i = 0; i < MAX_OBJECTS && !it; i++)
    if (!instances[i].key) { it = &instances[i]; it->key = RESERVED; }
  pthread_mutex_unlock(&lock);
  if (!it) {
    fprintf(stderr, "%s: more than %d instances at once: this one is refused\n", LAYER_NAME, MAX_OBJECTS);
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }

  /* the extension is this layer's: the driver below never hears of it */
  const char **names = layer_alloc(alloc, (info->enabledExtensionCount + 1) * sizeof(char *));
  if (!names) {
    pthread_mutex_lock(&lock);
    it->key = NULL;
    pthread_mutex_unlock(&lock);
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }
  uint32_t n = 0;
  for (uint32_t i = 0; i < info->enabledExtensionCount; i++)
    if (strcmp(info->ppEnabledExtensionNames[i], VK_EXT_HEADLESS_SURFACE_EXTENSION_NAME) != 0)
      names[n++] = info->ppEnabledExtensionNames[i];
  VkInstanceCreateInfo down = *info;
  down.enabledExtensionCount = n;
  down.ppEnabledExtensionNames = names;
  VkResult result = create(&down, alloc, out);
  layer_free(alloc, names);

  pthread_mutex_lock(&lock);
  if (result != VK_SUCCESS) {
    it->key = NULL;
  } else {
    it->instance = *out;
    it->gipa = gipa;
    it->destroy = (PFN_vkDestroyInstance)gipa(*out, "vkDestroyInstance");
    it->destroySurface = (PFN_vkDestroySurfaceKHR)gipa(*out, "vkDestroySurfaceKHR");
    it->support = (PFN_vkGetPhysicalDeviceSurfaceSupportKHR)gipa(*out, "vkGetPhysicalDeviceSurfaceSupportKHR");
    it->caps = (PFN_vkGetPhysicalDeviceSurfaceCapabilitiesKHR)gipa(*out, "vkGetPhysicalDeviceSurfaceCapabilitiesKHR");
    it->formats = (PFN_vkGetPhysicalDeviceSurfaceFormatsKHR)gipa(*out, "vkGetPhysicalDeviceSurfaceFormatsKHR");
    it->modes = (PFN_vkGetPhysicalDeviceSurfacePresentModesKHR)gipa(*out, "vkGetPhysicalDeviceSurfacePresentModesKHR");
    it->caps2 = (PFN_vkGetPhysicalDeviceSurfaceCapabilities2KHR)gipa(*out, "vkGetPhysicalDeviceSurfaceCapabilities2KHR");
    it->formats2 = (PFN_vkGetPhysicalDeviceSurfaceFormats2KHR)gipa(*out, "vkGetPhysicalDeviceSurfaceFormats2KHR");
    it->rects = (PFN_vkGetPhysicalDevicePresentRectanglesKHR)gipa(*out, "vkGetPhysicalDevicePresentRectanglesKHR");
    it->key = key_of(*out); /* last: a slot is found by its key only once it is whole */
  }
  pthread_mutex_unlock(&lock);
  return result;
}

static VKAPI_ATTR void VKAPI_CALL DestroyInstance(VkInstance instance, const VkAllocationCallbacks *alloc) {
  if (instance == VK_NULL_HANDLE) return;
  pthread_mutex_lock(&lock);
  Instance *it = instance_exact(instance); /* never another instance's slot */
  PFN_vkDestroyInstance destroy = it ? it->destroy : NULL;
  if (it) memset(it, 0, sizeof *it);
  pthread_mutex_unlock(&lock);
  if (destroy) destroy(instance, alloc);
}

static VKAPI_ATTR VkResult VKAPI_CALL CreateHeadlessSurfaceEXT(VkInstance instance, const VkHeadlessSurfaceCreateInfoEXT *info,
                                                               const VkAllocationCallbacks *alloc, VkSurfaceKHR *out) {
  (void)instance; (void)info; (void)alloc;
  void *handle = malloc(1); /* a unique non-dispatchable handle (freed by this layer alone, so malloc's) */
  if (!handle) return VK_ERROR_OUT_OF_HOST_MEMORY;
  pthread_mutex_lock(&lock);
  for (int i = 0; i < MAX_OBJECTS; i++)
    if (surfaces[i] == VK_NULL_HANDLE) {
      surfaces[i] = (VkSurfaceKHR)(uintptr_t)handle;
      *out = surfaces[i];
      pthread_mutex_unlock(&lock);
      return VK_SUCCESS;
    }
  pthread_mutex_unlock(&lock);
  free(handle);
  return VK_ERROR_OUT_OF_HOST_MEMORY;
}

static VKAPI_ATTR void VKAPI_CALL DestroySurfaceKHR(VkInstance instance, VkSurfaceKHR surface, const VkAllocationCallbacks *alloc) {
  if (surface == VK_NULL_HANDLE) return;
  pthread_mutex_lock(&lock);
  for (int i = 0; i < MAX_OBJECTS; i++)
    if (surfaces[i] == surface) {
      surfaces[i] = VK_NULL_HANDLE;
      free((void *)(uintptr_t)surface);
      pthread_mutex_unlock(&lock);
      return;
    }
  Instance *it = instance_for(instance);
  pthread_mutex_unlock(&lock);
  if (it && it->destroySurface) it->destroySurface(instance, surface, alloc);
}

static VKAPI_ATTR VkResult VKAPI_CALL GetSurfaceSupport(VkPhysicalDevice gpu, uint32_t family, VkSurfaceKHR surface, VkBool32 *out) {
  if (ours(surface)) { *out = VK_TRUE; return VK_SUCCESS; }
  PFN_vkGetPhysicalDeviceSurfaceSupportKHR next;
  NEXT_INSTANCE(support, gpu, next);
  return next ? next(gpu, family, surface, out) : VK_ERROR_SURFACE_LOST_KHR;
}

/* a headless surface's capabilities as the extension's spec gives them: its extent is the swapchain's to choose */
static void headless_caps(VkSurfaceCapabilitiesKHR *c) {
  memset(c, 0, sizeof *c);
  c->minImageCount = 1;
  c->maxImageCount = 8;
  c->currentExtent.width = c->currentExtent.height = 0xFFFFFFFFu;
  c->minImageExtent.width = c->minImageExtent.height = 1;
  c->maxImageExtent.width = c->maxImageExtent.height = 16384;
  c->maxImageArrayLayers = 1;
  c->supportedTransforms = c->currentTransform = VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR;
  c->supportedCompositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
  c->supportedUsageFlags = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                           VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_SAMPLED_BIT;
}

static VKAPI_ATTR VkResult VKAPI_CALL GetSurfaceCaps(VkPhysicalDevice gpu, VkSurfaceKHR surface, VkSurfaceCapabilitiesKHR *out) {
  if (ours(surface)) { headless_caps(out); return VK_SUCCESS; }
  PFN_vkGetPhysicalDeviceSurfaceCapabilitiesKHR next;
  NEXT_INSTANCE(caps, gpu, next);
  return next ? next(gpu, surface, out) : VK_ERROR_SURFACE_LOST_KHR;
}

static VKAPI_ATTR VkResult VKAPI_CALL GetSurfaceCaps2(VkPhysicalDevice gpu, const VkPhysicalDeviceSurfaceInfo2KHR *info,
                                                      VkSurfaceCapabilities2KHR *out) {
  if (ours(info->surface)) { headless_caps(&out->surfaceCapabilities); return VK_SUCCESS; }
  PFN_vkGetPhysicalDeviceSurfaceCapabilities2KHR next;
  NEXT_INSTANCE(caps2, gpu, next);
  return next ? next(gpu, info, out) : VK_ERROR_SURFACE_LOST_KHR;
}

static const VkSurfaceFormatKHR FORMATS[] = {
  {VK_FORMAT_B8G8R8A8_UNORM, VK_COLOR_SPACE_SRGB_NONLINEAR_KHR},
  {VK_FORMAT_R8G8B8A8_UNORM, VK_COLOR_SPACE_SRGB_NONLINEAR_KHR},
};
#define FORMAT_COUNT ((uint32_t)(sizeof FORMATS / sizeof FORMATS[0]))

static VKAPI_ATTR VkResult VKAPI_CALL GetSurfaceFormats(VkPhysicalDevice gpu, VkSurfaceKHR surface, uint32_t *count,
                                                        VkSurfaceFormatKHR *out) {
  if (!ours(surface)) {
    PFN_vkGetPhysicalDeviceSurfaceFormatsKHR next;
    NEXT_INSTANCE(formats, gpu, next);
    return next ? next(gpu, surface, count, out) : VK_ERROR_SURFACE_LOST_KHR;
  }
  if (!out) { *count = FORMAT_COUNT; return VK_SUCCESS; }
  uint32_t n = *count < FORMAT_COUNT ? *count : FORMAT_COUNT;
  memcpy(out, FORMATS, n * sizeof *out);
  *count = n;
  return n < FORMAT_COUNT ? VK_INCOMPLETE : VK_SUCCESS;
}

static VKAPI_ATTR VkResult VKAPI_CALL GetSurfaceFormats2(VkPhysicalDevice gpu, const VkPhysicalDeviceSurfaceInfo2KHR *info,
                                                         uint32_t *count, VkSurfaceFormat2KHR *out) {
  if (!ours(info->surface)) {
    PFN_vkGetPhysicalDeviceSurfaceFormats2KHR next;
    NEXT_INSTANCE(formats2, gpu, next);
    return next ? next(gpu, info, count, out) : VK_ERROR_SURFACE_LOST_KHR;
  }
  if (!out) { *count = FORMAT_COUNT; return VK_SUCCESS; }
  uint32_t n = *count < FORMAT_COUNT ? *count : FORMAT_COUNT;
  for (uint32_t i = 0; i < n; i++) out[i].surfaceFormat = FORMATS[i];
  *count = n;
  return n < FORMAT_COUNT ? VK_INCOMPLETE : VK_SUCCESS;
}

static VKAPI_ATTR VkResult VKAPI_CALL GetSurfaceModes(VkPhysicalDevice gpu, VkSurfaceKHR surface, uint32_t *count,
                                                      VkPresentModeKHR *out) {
  if (!ours(surface)) {
    PFN_vkGetPhysicalDeviceSurfacePresentModesKHR next;
    NEXT_INSTANCE(modes, gpu, next);
    return next ? next(gpu, surface, count, out) : VK_ERROR_SURFACE_LOST_KHR;
  }
  if (!out) { *count = 1; return VK_SUCCESS; }
  if (*count < 1) return VK_INCOMPLETE;
  out[0] = VK_PRESENT_MODE_FIFO_KHR;
  *count = 1;
  return VK_SUCCESS;
}

static VKAPI_ATTR VkResult VKAPI_CALL GetPresentRects(VkPhysicalDevice gpu, VkSurfaceKHR surface, uint32_t *count, VkRect2D *out) {
  if (!ours(surface)) {
    PFN_vkGetPhysicalDevicePresentRectanglesKHR next;
    NEXT_INSTANCE(rects, gpu, next);
    return next ? next(gpu, surface, count, out) : VK_ERROR_SURFACE_LOST_KHR;
  }
  *count = 0; /* no rectangle of a screen: there is none */
  (void)out;
  return VK_SUCCESS;
}

static VKAPI_ATTR VkResult VKAPI_CALL CreateDevice(VkPhysicalDevice gpu, const VkDeviceCreateInfo *info,
                                                   const VkAllocationCallbacks *alloc, VkDevice *out) {
  VkLayerDeviceCreateInfo *link = (VkLayerDeviceCreateInfo *)info->pNext;
  while (link && !(link->sType == VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO && link->function == VK_LAYER_LINK_INFO))
    link = (VkLayerDeviceCreateInfo *)link->pNext;
  if (!link) return VK_ERROR_INITIALIZATION_FAILED;
  PFN_vkGetInstanceProcAddr gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  PFN_vkGetDeviceProcAddr gdpa = link->u.pLayerInfo->pfnNextGetDeviceProcAddr;
  link->u.pLayerInfo = link->u.pLayerInfo->pNext;
  VkInstance instance = VK_NULL_HANDLE;
  pthread_mutex_lock(&lock);
  Instance *it = instance_for(gpu);
  if (it) instance = it->instance;
  Device *d = NULL;
  for (int i = 0; i < MAX_OBJECTS && !d; i++)
    if (!devices[i].key) { d = &devices[i]; d->key = RESERVED; }
  pthread_mutex_unlock(&lock);
  if (!d) {
    fprintf(stderr, "%s: more than %d devices at once: this one is refused\n", LAYER_NAME, MAX_OBJECTS);
    return VK_ERROR_TOO_MANY_OBJECTS;
  }
  PFN_vkCreateDevice create = (PFN_vkCreateDevice)gipa(instance, "vkCreateDevice");
  VkResult result = create ? create(gpu, info, alloc, out) : VK_ERROR_INITIALIZATION_FAILED;
  pthread_mutex_lock(&lock);
  if (result != VK_SUCCESS) {
    d->key = NULL;
  } else {
    d->gdpa = gdpa;
    d->destroy = (PFN_vkDestroyDevice)gdpa(*out, "vkDestroyDevice");
    d->createSwapchain = (PFN_vkCreateSwapchainKHR)gdpa(*out, "vkCreateSwapchainKHR");
    d->groupModes = (PFN_vkGetDeviceGroupSurfacePresentModesKHR)gdpa(*out, "vkGetDeviceGroupSurfacePresentModesKHR");
    d->key = key_of(*out); /* last: found by its key only once whole */
  }
  pthread_mutex_unlock(&lock);
  return result;
}

static VKAPI_ATTR void VKAPI_CALL DestroyDevice(VkDevice device, const VkAllocationCallbacks *alloc) {
  if (device == VK_NULL_HANDLE) return;
  pthread_mutex_lock(&lock);
  Device *d = device_for(device);
  PFN_vkDestroyDevice destroy = d ? d->destroy : NULL;
  if (d) memset(d, 0, sizeof *d);
  pthread_mutex_unlock(&lock);
  if (destroy) destroy(device, alloc);
}

static VKAPI_ATTR VkResult VKAPI_CALL CreateSwapchainKHR(VkDevice device, const VkSwapchainCreateInfoKHR *info,
                                                         const VkAllocationCallbacks *alloc, VkSwapchainKHR *out) {
  if (ours(info->surface)) {
    fprintf(stderr, "%s: a swapchain on a headless surface was asked for and refused (nothing here presents)\n", LAYER_NAME);
    return VK_ERROR_INITIALIZATION_FAILED;
  }
  PFN_vkCreateSwapchainKHR next;
  NEXT_DEVICE(createSwapchain, device, next);
  return next ? next(device, info, alloc, out) : VK_ERROR_INITIALIZATION_FAILED;
}

static VKAPI_ATTR VkResult VKAPI_CALL GetGroupModes(VkDevice device, VkSurfaceKHR surface, VkDeviceGroupPresentModeFlagsKHR *out) {
  if (ours(surface)) { *out = VK_DEVICE_GROUP_PRESENT_MODE_LOCAL_BIT_KHR; return VK_SUCCESS; }
  PFN_vkGetDeviceGroupSurfacePresentModesKHR next;
  NEXT_DEVICE(groupModes, device, next);
  return next ? next(device, surface, out) : VK_ERROR_SURFACE_LOST_KHR;
}

static VKAPI_ATTR VkResult VKAPI_CALL EnumerateInstanceExtensionProperties(const char *layer, uint32_t *count,
                                                                           VkExtensionProperties *out) {
  if (!layer || strcmp(layer, LAYER_NAME) != 0) return VK_ERROR_LAYER_NOT_PRESENT;
  if (!out) { *count = 1; return VK_SUCCESS; }
  if (*count < 1) return VK_INCOMPLETE;
  memset(out, 0, sizeof *out);
  strcpy(out->extensionName, VK_EXT_HEADLESS_SURFACE_EXTENSION_NAME);
  out->specVersion = VK_EXT_HEADLESS_SURFACE_SPEC_VERSION;
  *count = 1;
  return VK_SUCCESS;
}

static PFN_vkVoidFunction device_function(const char *name) {
  if (!strcmp(name, "vkDestroyDevice")) return (PFN_vkVoidFunction)DestroyDevice;
  if (!strcmp(name, "vkCreateSwapchainKHR")) return (PFN_vkVoidFunction)CreateSwapchainKHR;
  if (!strcmp(name, "vkGetDeviceGroupSurfacePresentModesKHR")) return (PFN_vkVoidFunction)GetGroupModes;
  return NULL;
}

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetDeviceProcAddr(VkDevice device, const char *name) {
  PFN_vkVoidFunction f = device_function(name);
  if (f) return f;
  PFN_vkGetDeviceProcAddr next;
  NEXT_DEVICE(gdpa, device, next);
  return next ? next(device, name) : NULL;
}

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetInstanceProcAddr(VkInstance instance, const char *name) {
  static const struct { const char *name; PFN_vkVoidFunction f; } table[] = {
    {"vkGetInstanceProcAddr", (PFN_vkVoidFunction)GetInstanceProcAddr},
    {"vkGetDeviceProcAddr", (PFN_vkVoidFunction)GetDeviceProcAddr},
    {"vkCreateInstance", (PFN_vkVoidFunction)CreateInstance},
    {"vkDestroyInstance", (PFN_vkVoidFunction)DestroyInstance},
    {"vkEnumerateInstanceExtensionProperties", (PFN_vkVoidFunction)EnumerateInstanceExtensionProperties},
    {"vkCreateDevice", (PFN_vkVoidFunction)CreateDevice},
    {"vkCreateHeadlessSurfaceEXT", (PFN_vkVoidFunction)CreateHeadlessSurfaceEXT},
    {"vkDestroySurfaceKHR", (PFN_vkVoidFunction)DestroySurfaceKHR},
    {"vkGetPhysicalDeviceSurfaceSupportKHR", (PFN_vkVoidFunction)GetSurfaceSupport},
    {"vkGetPhysicalDeviceSurfaceCapabilitiesKHR", (PFN_vkVoidFunction)GetSurfaceCaps},
    {"vkGetPhysicalDeviceSurfaceCapabilities2KHR", (PFN_vkVoidFunction)GetSurfaceCaps2},
    {"vkGetPhysicalDeviceSurfaceFormatsKHR", (PFN_vkVoidFunction)GetSurfaceFormats},
    {"vkGetPhysicalDeviceSurfaceFormats2KHR", (PFN_vkVoidFunction)GetSurfaceFormats2},
    {"vkGetPhysicalDeviceSurfacePresentModesKHR", (PFN_vkVoidFunction)GetSurfaceModes},
    {"vkGetPhysicalDevicePresentRectanglesKHR", (PFN_vkVoidFunction)GetPresentRects},
  };
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
    if (!strcmp(name, table[i].name)) return table[i].f;
  PFN_vkVoidFunction f = device_function(name);
  if (f) return f;
  if (instance == VK_NULL_HANDLE) return NULL;
  PFN_vkGetInstanceProcAddr next;
  NEXT_INSTANCE(gipa, instance, next);
  return next ? next(instance, name) : NULL;
}

/* the exported names are the loader's own too: inside this library they would resolve to the loader's functions (found
   when tried: the loader was handed its own vkGetInstanceProcAddr and waited on itself), so the layer hands out its
   static functions and exports thin entries for loaders that look the names up */
EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetInstanceProcAddr(VkInstance instance, const char *name) {
  return GetInstanceProcAddr(instance, name);
}

EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetDeviceProcAddr(VkDevice device, const char *name) {
  return GetDeviceProcAddr(device, name);
}

EXPORT VKAPI_ATTR VkResult VKAPI_CALL vkNegotiateLoaderLayerInterfaceVersion(VkNegotiateLayerInterface *v) {
  if (v->loaderLayerInterfaceVersion > 2) v->loaderLayerInterfaceVersion = 2;
  v->pfnGetInstanceProcAddr = GetInstanceProcAddr;
  v->pfnGetDeviceProcAddr = GetDeviceProcAddr;
  v->pfnGetPhysicalDeviceProcAddr = NULL;
  return VK_SUCCESS;
}
