/*
 * What the host's Vulkan gives a process started with this environment, one fact a line, for HeadlessSurface to decide
 * whether a browser needs the headless-surface layer:
 *   loader <ok|missing: why>
 *   extension <name>            each instance extension the loader and its drivers offer
 *   device <vendor hex>\t<type>\t<name>   each physical device of an instance made without layers or extensions
 *   error <what>                when an instance could not be made
 * The loader is opened with dlopen, so the probe runs (and says so) where no Vulkan loader is installed. It is built
 * with the layer (build.sh) and run by Accelbridge in a process of its own, bounded in time and output.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <vulkan/vulkan.h>

int main(void) {
  void *lib = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    printf("loader missing: %s\n", dlerror());
    return 0;
  }
  PFN_vkGetInstanceProcAddr gipa = (PFN_vkGetInstanceProcAddr)dlsym(lib, "vkGetInstanceProcAddr");
  if (!gipa) {
    printf("loader missing: libvulkan.so.1 has no vkGetInstanceProcAddr\n");
    return 0;
  }
  printf("loader ok\n");
  PFN_vkEnumerateInstanceExtensionProperties exts =
      (PFN_vkEnumerateInstanceExtensionProperties)gipa(NULL, "vkEnumerateInstanceExtensionProperties");
  PFN_vkCreateInstance create = (PFN_vkCreateInstance)gipa(NULL, "vkCreateInstance");
  uint32_t n = 0;
  if (exts && exts(NULL, &n, NULL) == VK_SUCCESS && n > 0 && n < 4096) {
    VkExtensionProperties *p = calloc(n, sizeof *p);
    if (p && exts(NULL, &n, p) >= 0) {
      for (uint32_t i = 0; i < n; i++) printf("extension %.*s\n", VK_MAX_EXTENSION_NAME_SIZE, p[i].extensionName);
    }
    free(p);
  }
  VkApplicationInfo app = {VK_STRUCTURE_TYPE_APPLICATION_INFO, NULL, "accelbridge-vulkan-probe", 1, "accelbridge", 1,
                           VK_API_VERSION_1_1};
  VkInstanceCreateInfo info = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, NULL, 0, &app, 0, NULL, 0, NULL};
  VkInstance inst = VK_NULL_HANDLE;
  VkResult r = create ? create(&info, NULL, &inst) : VK_ERROR_INITIALIZATION_FAILED;
  if (r != VK_SUCCESS) {
    printf("error vkCreateInstance returned %d\n", (int)r);
    return 0;
  }
  PFN_vkEnumeratePhysicalDevices devices = (PFN_vkEnumeratePhysicalDevices)gipa(inst, "vkEnumeratePhysicalDevices");
  PFN_vkGetPhysicalDeviceProperties props = (PFN_vkGetPhysicalDeviceProperties)gipa(inst, "vkGetPhysicalDeviceProperties");
  PFN_vkDestroyInstance destroy = (PFN_vkDestroyInstance)gipa(inst, "vkDestroyInstance");
  uint32_t count = 0;
  if (devices && props && devices(inst, &count, NULL) >= 0 && count > 0 && count < 256) {
    VkPhysicalDevice *d = calloc(count, sizeof *d);
    if (d && devices(inst, &count, d) >= 0) {
      for (uint32_t i = 0; i < count; i++) {
        VkPhysicalDeviceProperties p;
        props(d[i], &p);
        printf("device %04x\t%d\t%.*s\n", p.vendorID, (int)p.deviceType, VK_MAX_PHYSICAL_DEVICE_NAME_SIZE, p.deviceName);
      }
    }
    free(d);
  }
  if (destroy) destroy(inst, NULL);
  return 0;
}
