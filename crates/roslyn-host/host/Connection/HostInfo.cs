using System.Diagnostics;
using System.Reflection;
using Microsoft.Build.Locator;
using Microsoft.CodeAnalysis;
using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Connection;

/// <summary>What the host tells the broker about itself and the toolchain it found.</summary>
public static class HostInfo
{
    public static HostHello Hello()
    {
        var (msbuildVersion, msbuildPath, sdkVersion) = FindMsBuild();
        return new HostHello(
            ProtocolVersion.Current,
            InformationalVersion(typeof(HostInfo).Assembly),
            InformationalVersion(typeof(Compilation).Assembly),
            msbuildVersion,
            msbuildPath,
            sdkVersion,
            Environment.Version.ToString(),
            (uint)Environment.ProcessId);
    }

    /// <summary>The assembly's informational version without its <c>+commit</c> suffix.</summary>
    public static string InformationalVersion(Assembly assembly)
    {
        var version = assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion
            ?? assembly.GetName().Version?.ToString()
            ?? "";
        var plus = version.IndexOf('+');
        return plus < 0 ? version : version[..plus];
    }

    /// <summary>
    /// The newest MSBuild instance (for a .NET SDK its version is the SDK's); only queried, never registered,
    /// since MSBuildWorkspace evaluates projects out of process.
    /// </summary>
    private static (string MsBuildVersion, string MsBuildPath, string SdkVersion) FindMsBuild()
    {
        try
        {
            var instance = MSBuildLocator.QueryVisualStudioInstances().MaxBy(i => i.Version);
            if (instance is null)
            {
                return ("", "", "");
            }
            var sdkVersion = instance.DiscoveryType == DiscoveryType.DotNetSdk ? instance.Version.ToString() : "";
            return (MsBuildFileVersion(instance.MSBuildPath), instance.MSBuildPath, sdkVersion);
        }
        catch (Exception e)
        {
            Log.Warn($"MSBuild discovery failed: {e.Message}");
            return ("", "", "");
        }
    }

    private static string MsBuildFileVersion(string msbuildPath)
    {
        var dll = Path.Combine(msbuildPath, "Microsoft.Build.dll");
        if (!File.Exists(dll))
        {
            return "";
        }
        var info = FileVersionInfo.GetVersionInfo(dll);
        // ProductVersion is "18.9.11+e34a38d2a"; FileVersion "18.9.11.xxxxx" carries a build-specific fourth part.
        var product = info.ProductVersion ?? "";
        var plus = product.IndexOf('+');
        return plus < 0 ? product : product[..plus];
    }
}
