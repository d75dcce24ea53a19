/*
 * Tries the headless-surface layer (headless-surface-layer.c) under Vulkan's own loader on a real driver that lacks
 * VK_EXT_headless_surface (Mesa's lavapipe, here): the extension is offered and its surface answers; more instances and
 * devices than the layer has slots for are refused, not left untracked; queries racing creates and destroys on other
 * threads get their answers; an allocation of the layer's that fails is said, not crashed on. Built and run against the
 * layer the build made by HeadlessSurfaceLayerCheckTest (and by bench/gpu/layer-check.sh by hand); prints one line a check and exits 0 only when all hold.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vulkan/vulkan.h>

static int failed = 0;
#define CHECK(cond, ...) do { if (cond) { printf("ok    "); } else { printf("WRONG "); failed = 1; } printf(__VA_ARGS__); printf("\n"); } while (0)

static const char *EXTS[] = {VK_KHR_SURFACE_EXTENSION_NAME, VK_EXT_HEADLESS_SURFACE_EXTENSION_NAME};

static VkResult make_instance(VkInstance *out, const VkAllocationCallbacks *alloc) {
  VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .apiVersion = VK_API_VERSION_1_1};
  VkInstanceCreateInfo info = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app,
                               .enabledExtensionCount = 2, .ppEnabledExtensionNames = EXTS};
  return vkCreateInstance(&info, alloc, out);
}

static VkPhysicalDevice first_gpu(VkInstance instance) {
  uint32_t n = 1;
  VkPhysicalDevice gpu = VK_NULL_HANDLE;
  VkResult r = vkEnumeratePhysicalDevices(instance, &n, &gpu);
  return (r == VK_SUCCESS || r == VK_INCOMPLETE) && n ? gpu : VK_NULL_HANDLE;
}

static VkResult make_device(VkPhysicalDevice gpu, VkDevice *out) {
  float priority = 1;
  VkDeviceQueueCreateInfo q = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, .queueCount = 1, .pQueuePriorities = &priority};
  VkDeviceCreateInfo info = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .queueCreateInfoCount = 1, .pQueueCreateInfos = &q};
  return vkCreateDevice(gpu, &info, NULL, out);
}

/* an allocator that fails its Nth allocation (counting from 0), to find the layer's among them */
typedef struct { int fail_at; int count; size_t size; VkSystemAllocationScope scope; } Faults;
static void *VKAPI_CALL f_alloc(void *u, size_t size, size_t align, VkSystemAllocationScope s) {
  Faults *f = u;
  if (f->count++ == f->fail_at) { f->size = size; f->scope = s; return NULL; }
  void *p = NULL;
  return posix_memalign(&p, align < sizeof(void *) ? sizeof(void *) : align, size ? size : 1) == 0 ? p : NULL;
}
static void *VKAPI_CALL f_realloc(void *u, void *o, size_t size, size_t align, VkSystemAllocationScope s) {
  (void)u; (void)align; (void)s;
  return realloc(o, size);
}
static void VKAPI_CALL f_free(void *u, void *p) { (void)u; free(p); }

static volatile int stop = 0;
static VkInstance shared;
static VkSurfaceKHR shared_surface;
static long answered = 0, wrong_answers = 0;

static void *query(void *arg) {
  (void)arg;
  VkPhysicalDevice gpu = first_gpu(shared);
  while (!stop) {
    VkBool32 yes = VK_FALSE;
    uint32_t n = 0;
    VkResult a = vkGetPhysicalDeviceSurfaceSupportKHR(gpu, 0, shared_surface, &yes);
    VkResult b = vkGetPhysicalDeviceSurfaceFormatsKHR(gpu, shared_surface, &n, NULL);
    if (a != VK_SUCCESS || !yes || b != VK_SUCCESS || n == 0) wrong_answers++;
    answered++;
  }
  return NULL;
}

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0); /* each line out as it is decided: a crash after it loses none */
  uint32_t n = 0;
  vkEnumerateInstanceExtensionProperties(NULL, &n, NULL);
  VkExtensionProperties *props = calloc(n, sizeof *props);
  vkEnumerateInstanceExtensionProperties(NULL, &n, props);
  int offered = 0;
  for (uint32_t i = 0; i < n; i++) offered |= !strcmp(props[i].extensionName, VK_EXT_HEADLESS_SURFACE_EXTENSION_NAME);
  free(props);
  CHECK(offered, "the loader lists VK_EXT_headless_surface (the driver has it not: the layer offers it)");

  VkResult r = make_instance(&shared, NULL);
  CHECK(r == VK_SUCCESS, "an instance with the extension (%d)", r);
  if (r != VK_SUCCESS) return 1;
  PFN_vkCreateHeadlessSurfaceEXT mk = (PFN_vkCreateHeadlessSurfaceEXT)vkGetInstanceProcAddr(shared, "vkCreateHeadlessSurfaceEXT");
  VkHeadlessSurfaceCreateInfoEXT hs = {.sType = VK_STRUCTURE_TYPE_HEADLESS_SURFACE_CREATE_INFO_EXT};
  r = mk ? mk(shared, &hs, NULL, &shared_surface) : VK_ERROR_EXTENSION_NOT_PRESENT;
  CHECK(r == VK_SUCCESS, "a headless surface (%d)", r);
  VkBool32 yes = VK_FALSE;
  vkGetPhysicalDeviceSurfaceSupportKHR(first_gpu(shared), 0, shared_surface, &yes);
  CHECK(yes, "the device presents to it, as a headless surface's spec says");

  /* 64 slots: 63 more instances beside the shared one, then one past them refused, then room again once one goes */
  VkInstance many[64];
  int made = 0;
  for (int i = 0; i < 63; i++) made += make_instance(&many[i], NULL) == VK_SUCCESS;
  CHECK(made == 63, "64 instances at once (%d of 63 more made)", made);
  VkInstance extra;
  r = make_instance(&extra, NULL);
  CHECK(r == VK_ERROR_OUT_OF_HOST_MEMORY, "the 65th refused, not made untracked (%d)", r);
  if (r == VK_SUCCESS) vkDestroyInstance(extra, NULL);
  vkDestroyInstance(many[62], NULL);
  r = make_instance(&many[62], NULL);
  CHECK(r == VK_SUCCESS, "room again once one is destroyed (%d)", r);
  for (int i = 0; i < 63; i++) vkDestroyInstance(many[i], NULL);

  /* 64 device slots the same way */
  VkDevice devs[64];
  VkPhysicalDevice gpu = first_gpu(shared);
  made = 0;
  for (int i = 0; i < 64; i++) made += make_device(gpu, &devs[i]) == VK_SUCCESS;
  CHECK(made == 64, "64 devices at once (%d made)", made);
  VkDevice extra_dev;
  r = make_device(gpu, &extra_dev);
  CHECK(r == VK_ERROR_TOO_MANY_OBJECTS, "the 65th device refused, not made untracked (%d)", r);
  if (r == VK_SUCCESS) vkDestroyDevice(extra_dev, NULL);
  for (int i = 0; i < made; i++) vkDestroyDevice(devs[i], NULL);

  /* queries on one thread while another makes and destroys instances and devices, each clearing a slot */
  pthread_t t;
  pthread_create(&t, NULL, query, NULL);
  int churned = 0;
  for (int i = 0; i < 200; i++) {
    VkInstance x;
    if (make_instance(&x, NULL) != VK_SUCCESS) continue;
    VkDevice d;
    if (make_device(first_gpu(x), &d) == VK_SUCCESS) vkDestroyDevice(d, NULL);
    vkDestroyInstance(x, NULL);
    churned++;
  }
  stop = 1;
  pthread_join(t, NULL);
  CHECK(churned == 200 && answered > 0 && wrong_answers == 0, "queries racing %d creates and destroys: %ld answered, %ld wrong",
        churned, answered, wrong_answers);

  /* every allocation of an instance's making failed in turn: none crashes, and the layer's own (its list of the
     extensions passed down: three pointers, for the call alone) is refused with out-of-memory; the loader's own may say
     otherwise (it says a failed allocation while it lists extensions as "extension not present") */
  int refused = 0, layers = 0, layer_wrong = 0, made_at = -1;
  for (int at = 0; at < 400; at++) {
    Faults f = {at, 0, 0, 0};
    VkAllocationCallbacks cb = {.pUserData = &f, .pfnAllocation = f_alloc, .pfnReallocation = f_realloc, .pfnFree = f_free};
    VkInstance x;
    r = make_instance(&x, &cb);
    if (f.size == 3 * sizeof(void *) && f.scope == VK_SYSTEM_ALLOCATION_SCOPE_COMMAND) {
      layers++;
      layer_wrong += r != VK_ERROR_OUT_OF_HOST_MEMORY;
    }
    if (r == VK_SUCCESS) { vkDestroyInstance(x, &cb); if (f.count <= at) { made_at = at; break; } }
    else refused++;
  }
  CHECK(made_at > 0 && layers > 0 && layer_wrong == 0, "allocations failing one at a time (%d of them): %d refused, none crashed; "
        "the layer's own failing %d times, each refused with out-of-memory (%d not)", made_at, refused, layers, layer_wrong);

  PFN_vkDestroySurfaceKHR ds = (PFN_vkDestroySurfaceKHR)vkGetInstanceProcAddr(shared, "vkDestroySurfaceKHR");
  ds(shared, shared_surface, NULL);
  vkDestroyInstance(shared, NULL);
  return failed;
}
